"""A game's result as codes, and the engine's English for it (the catalogue's sentences).

`Result(winner, kind)`: the winner (None: nobody) and how the game ended, a `Termination`.
Clients and records that want prose call `english_reason(result)`; its sentences for the
endings the rules decide are exactly the ones the engine sent before results had codes, so
version-1 clients and the records' `# result:` comment read as they always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from catalogue.endings import NEITHER_HAS_A_BRIDGE
from catalogue.endings import REASONS as _REASONS
from shared.types import Seat, Termination

T = Termination

# How each ending reads in English, "{seat}" standing for the loser's colour: the catalogue's
# sentences (catalogue.endings), which are the ones the engine sent before results had codes.
REASONS: dict[Termination, str] = {T(code): sentence for code, sentence in _REASONS.items()}

# Today's English for the endings the rules decide, read back for code and data made before
# results had codes (older stored summaries, the playout engine's English reasons).
_LEGACY: dict[str, Termination] = {
    NEITHER_HAS_A_BRIDGE: T.NO_BRIDGES,
    **{
        REASONS[kind].format(seat=seat.label): kind
        for kind in (T.POINTS, T.FINAL, T.BRIDGES, T.TIE, T.NO_BRIDGES)
        for seat in Seat
    },
}

# Kinds that never have a winner, and kinds that always have one.
_NO_WINNER = frozenset({T.TIE, T.AGREED, T.ABANDONED})
_WINNER = frozenset({T.POINTS, T.FINAL, T.BRIDGES, T.RESIGNED, T.TIME, T.FORFEIT})


def termination(value: object) -> Termination:
    """A Termination from its code ("points"), or from the English reason the engine gave
    before results had codes ("more points"); ValueError for anything else."""
    if isinstance(value, Termination):
        return value
    if isinstance(value, str):
        if value in _LEGACY:
            return _LEGACY[value]
        try:
            return Termination(value)
        except ValueError:
            pass
    codes = ", ".join(t.value for t in Termination)
    raise ValueError(f"{value!r} is not how a game ends; one of {codes}")


@attrs.frozen
class Result:
    """Who won (None: nobody) and how the game ended."""

    winner: Seat | None
    # The converter also takes the older English reasons, so code that still builds a Result
    # from one (shared/playout.py) compares equal to the engine's.
    kind: Termination = attrs.field(converter=termination)

    def __attrs_post_init__(self) -> None:
        if self.winner is None and self.kind in _WINNER:
            raise ValueError(f"a game that ends by {self.kind.value!r} has a winner")
        if self.winner is not None and self.kind in _NO_WINNER:
            raise ValueError(f"a game that ends by {self.kind.value!r} has no winner")

    @property
    def loser(self) -> Seat | None:
        return None if self.winner is None else self.winner.other

    @property
    def reason(self) -> str:
        """The English sentence: english_reason(self). For code from before the codes; new
        code reads `kind`."""
        return english_reason(self)

    def to_dict(self) -> dict[str, str | None]:
        winner = None if self.winner is None else self.winner.name.lower()
        return {"winner": winner, "kind": self.kind.value}

    @classmethod
    def from_dict(cls, data: Any) -> Result:
        """The result from to_dict()'s form; the older {"winner", "reason"} form is read too.
        ValueError (or KeyError, TypeError) when it is not one."""
        winner = data["winner"]
        if winner is not None and not isinstance(winner, str):
            raise ValueError(f"{winner!r} is not a seat")
        kind = data["kind"] if "kind" in data else data["reason"]
        return cls(None if winner is None else Seat.parse(winner), kind)


def ending_sentence(result: Result, sentences: Mapping[Termination, str], neither: str) -> str:
    """The sentence for how this game ended: its kind's in `sentences`, or `neither` when the
    game ended with no bridge on the board for either player. The one place that tells the
    endings apart: each wording (the English here, the client's) is a mapping like REASONS."""
    if result.kind is T.NO_BRIDGES and result.loser is None:
        return neither
    return sentences[result.kind]


def english_reason(result: Result) -> str:
    """The result in words, for prose: the client's screen, records' comments, version-1
    clients. The winner is not named except where the sentence needs the loser."""
    loser = result.loser
    sentence = ending_sentence(result, REASONS, NEITHER_HAS_A_BRIDGE)
    return sentence if loser is None else sentence.format(seat=loser.label)
