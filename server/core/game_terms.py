"""A game's terms as they are asked for (a table's, a challenge's, a tournament's): the rules
and the clock they make, or the reason they make none, refused with the asker's code."""

from __future__ import annotations

from collections.abc import Callable

from protocol.fields import TableOptions, TimeControl
from server.core.clock import Clock, ClockError
from server.core.table import TableError
from shared.types import GameOptions, OptionsError


def game_terms(
    options: TableOptions, control: TimeControl | None, refused: Callable[[str], TableError]
) -> tuple[GameOptions, Clock | None]:
    """The rules and the clock asked for; `refused(why)` raised when they make no game."""
    try:
        rules = options.to_game_options()
        clock = None if control is None else Clock.new(control)
    except (OptionsError, ClockError) as exc:
        raise refused(str(exc)) from None
    return rules, clock
