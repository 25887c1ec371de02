"""The `hint` command: what the computer's normal level would play now, and why in a few words.

Computed on the player's own machine from the player's own view (shared.ai.choose_action sees
only that view): it needs nothing from the server and reveals nothing. The reason is read off
the board before and after the suggested play (shared.reasons, which gives it as a code that
the web page words too), so it says only what the play does for certain: the islands it wins
or takes, the opponent's island it blocks, how close it brings an island.
"""

from __future__ import annotations

import random

from client.language.i18n import _, ngettext
from client.language.words import seat_name
from shared.actions import Action
from shared.ai import choose_action
from shared.reasons import Reason, reason
from shared.types import Seat
from shared.views import SeatView


def suggest(view: SeatView, seed: int, iterations: int | None = None) -> tuple[Action, str]:
    """The normal level's choice for this view and the reason in words. Takes about 0.2 s
    (or exactly `iterations` plan evaluations): run it off the event loop."""
    action = choose_action(view, random.Random(seed), level="normal", iterations=iterations)
    return action, explain(view, action)


def _and(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("{some} and {last}").format(some=", ".join(names[:-1]), last=names[-1])


def explain(view: SeatView, action: Action) -> str:
    """What the action does, in words (shared.reasons reads it off the board)."""
    return reason_words(reason(view, action))


def reason_words(found: Reason) -> str:
    """A reason of shared.reasons in the chosen language."""
    p = found.params

    def islands(key: str) -> str:
        return _and(p[key].split("+"))

    def other() -> str:
        return seat_name(Seat.parse(p["other"]))

    match found.code:
        case "wins_sweeping":
            n = int(p["n"])
            return ngettext(
                "wins {islands} and sweeps away {n} of {other}'s bridges",
                "wins {islands} and sweeps away {n} of {other}'s bridges",
                n,
            ).format(islands=islands("islands"), n=n, other=other())
        case "wins":
            return _("wins {islands}").format(islands=islands("islands"))
        case "blocks":
            return _("blocks {other} from {islands}").format(
                other=other(), islands=islands("islands")
            )
        case "strengthens":
            return _("strengthens {a} and {b}, both yours").format(a=p["a"], b=p["b"])
        case "toward":
            return _("builds toward {island}, {have} of the {needed} bridges it needs").format(
                island=p["island"], have=p["have"], needed=p["needed"]
            )
        case "takes" | "breaks":
            if found.code == "takes":
                what = _("takes {islands} from {other} (the bridge {line})").format(
                    islands=islands("islands"), other=other(), line=p["line"]
                )
            else:
                what = _("breaks {other}'s bridge {line}").format(other=other(), line=p["line"])
            if "won" in p:
                what += " " + _("and builds there, winning {islands}").format(
                    islands=islands("won")
                )
            elif "rebuild" in p:
                what += " " + _("and builds there")
            return what
        case "discards":
            return _("discards {card}: the card you need least").format(card=p["card"])
        case "takes_card":
            return _("ends the turn taking {card}, the face-up card you want most").format(
                card=p["card"]
            )
        case "draws":
            return _("ends the turn drawing from the pile: no face-up card is worth more")
        case "abstains":
            return _("ends the turn without drawing")
        case "ends":
            return _("ends the last turn: no play is worth a card")
    return p.get("action", found.code)
