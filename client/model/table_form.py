"""The options of a new table, as the lobby's form edits them (and `--local` gives them)."""

from __future__ import annotations

import contextlib
from typing import Literal

import attrs

from client.model.table import CLOCK_CHOICES, LEVEL_CHOICES
from protocol.fields import FirstName, TableOptions, TimeControl
from protocol.messages import CreateTable

# The fields a form kept from an earlier run may hold only one of these values.
CHOICES: dict[str, tuple[str, ...]] = {
    "seat": ("white", "black"),
    "first": ("white", "black", "random"),
    "level": ("easy", "normal", "strong"),
}


@attrs.define
class CreateForm:
    """The options of a new table, as the lobby's form edits them."""

    vs_computer: bool = True
    seat: Literal["white", "black"] = "white"
    first: Literal["white", "black", "random"] = "white"
    variant1: bool = False
    variant2: bool = False
    handicap_seat: Literal["white", "black"] | None = None
    handicap_bridges: int = 0
    clock: TimeControl | None = None
    level: Literal["easy", "normal", "strong"] = "normal"
    hints: bool = True
    rated: bool = True  # version 3: rated when both players have accounts

    def message(self) -> CreateTable:
        """The request that creates this table."""
        options = TableOptions(
            self.variant1, self.variant2, self.handicap_seat, self.handicap_bridges
        )
        return CreateTable(
            options,
            self.vs_computer,
            self.seat,
            self.first,
            clock=self.clock,
            level=self.level,
            hints=self.hints,
            rated=self.rated,
        )

    def to_dict(self) -> dict[str, object]:
        """The choices, to be kept between runs (client/files/form_store.py)."""
        data = attrs.asdict(self)
        data["clock"] = None if self.clock is None else attrs.asdict(self.clock)
        return data

    @classmethod
    def from_dict(cls, data: object) -> CreateForm:
        """The choices kept; whatever cannot be read is the default."""
        form = cls()
        if not isinstance(data, dict):
            return form
        for field in attrs.fields(cls):
            value = data.get(field.name)
            if field.name == "clock":
                with contextlib.suppress(TypeError, ValueError):
                    form.clock = None if value is None else TimeControl(**value)
                continue
            default = getattr(form, field.name)
            allowed = CHOICES.get(field.name)
            if allowed is not None and value not in allowed:
                continue
            if value is not None and type(value) is type(default):
                setattr(form, field.name, value)
            elif field.name == "handicap_seat" and value in ("white", "black"):
                form.handicap_seat = value
        return form

    def toggle_computer(self) -> None:
        self.vs_computer = not self.vs_computer

    def switch_seat(self) -> None:
        self.seat = "black" if self.seat == "white" else "white"

    def cycle_first(self) -> None:
        order: tuple[FirstName, ...] = ("white", "black", "random")
        self.first = order[(order.index(self.first) + 1) % 3]

    def toggle_variant1(self) -> None:
        self.variant1 = not self.variant1

    def toggle_variant2(self) -> None:
        self.variant2 = not self.variant2

    def toggle_hints(self) -> None:
        self.hints = not self.hints

    def toggle_rated(self) -> None:
        self.rated = not self.rated

    def cycle_clock(self) -> None:
        choices = CLOCK_CHOICES
        index = choices.index(self.clock) if self.clock in choices else 0
        self.clock = choices[(index + 1) % len(choices)]

    def cycle_level(self) -> None:
        self.level = LEVEL_CHOICES[(LEVEL_CHOICES.index(self.level) + 1) % len(LEVEL_CHOICES)]

    def cycle_handicap(self) -> None:
        """none -> White 1, 2, 3 -> Black 1, 2, 3 -> none."""
        if self.handicap_seat is None:
            self.handicap_seat, self.handicap_bridges = "white", 1
        elif self.handicap_bridges < 3:
            self.handicap_bridges += 1
        elif self.handicap_seat == "white":
            self.handicap_seat, self.handicap_bridges = "black", 1
        else:
            self.handicap_seat, self.handicap_bridges = None, 0
