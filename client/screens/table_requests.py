"""The table's requests a typed line makes: resign (asked first), offer or accept a draw,
decline it, claim the win, offer or accept a rematch. (`hint` is the table's word too, but is
worked out here: client/screens/app.py runs it.)"""

from __future__ import annotations

from client.language.command_words import local_words
from client.language.i18n import _
from client.model.commands import Outcome
from client.model.sending import Send
from client.model.state import ClientState
from protocol.messages import Claim, ClientMessage, DeclineDraw, OfferDraw, Rematch, Resign

TABLE_KINDS = ("resign", "offer_draw", "decline_draw", "claim", "rematch", "hint")


def request(state: ClientState, send: Send, outcome: Outcome) -> bool:
    """Send the request (a resignation only once confirmed: first it asks), say so, and note it
    in the transcript; False when it could not be sent."""
    table_id = state.table_id
    assert table_id is not None
    kind = outcome.kind
    if kind == "resign" and outcome.text != "confirmed":
        state.resign_armed = True
        words = local_words()
        state.say(
            _(
                "Resign and lose this game? Type '{yes}' (or '{resign}' again) to resign;"
                " anything else plays on."
            ).format(yes=words["yes"], resign=words["resign"]),
            "error",
        )
        return True
    messages: dict[str, tuple[ClientMessage, str]] = {
        "resign": (Resign(table_id), _("You resign...")),
        "offer_draw": (
            OfferDraw(table_id),
            _("You accept the draw...") if outcome.text == "accept" else _("You offer a draw..."),
        ),
        "decline_draw": (DeclineDraw(table_id), _("You decline the draw...")),
        "claim": (Claim(table_id), _("You claim the win...")),
        "rematch": (
            Rematch(table_id),
            _("You accept the rematch...")
            if outcome.text == "accept"
            else _("You offer a rematch..."),
        ),
    }
    msg, said = messages[kind]
    if not send(msg):
        state.say(_("Not connected: nothing was sent. Reconnecting..."), "error")
        return False
    state.note_sent(kind.replace("_", " "))
    state.say(said)
    return True
