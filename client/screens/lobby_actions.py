"""What the player does from the lobby, and going back to it: join a table (or take a seat back),
watch one, create one; leave one. Each sends its message and says what happens."""

from __future__ import annotations

from client.language.i18n import _
from client.language.words import role_word, seat_name
from client.model.sending import Send
from client.model.state import ClientState
from protocol.fields import SeatName
from protocol.messages import Join, Leave, LobbySubscribe, LobbyUnsubscribe, Reclaim, Spectate
from protocol.player_messages import Resume


def join(state: ClientState, send: Send, seat: SeatName | None) -> None:
    """Sit down at the selected table (in this seat, or the free one; watch a full table),
    or take this user's seat there back (asked first while another client sits in it)."""
    table = state.selected_table
    if table is None:
        state.say(_("No table selected: press n to create one."), "error")
        return
    confirmed = state.confirm_takeover == table.table_id
    state.confirm_takeover = None
    mine = state.own_seat(table)  # by its token, or by the account logged in (resume)
    if mine is not None and seat in (None, mine):
        info = table.players.white if mine == "white" else table.players.black
        mine_here = table.table_id == state.quiet_table
        if info is not None and info.connected and not confirmed and not mine_here:
            # another client of this name sits there now: taking the seat throws it out
            state.confirm_takeover = table.table_id
            players = table.players
            free = "w" if players.white is None else "b" if players.black is None else ""
            said = _(
                "Your {seat} seat at table {table} is in use by another client:"
                " Enter again takes it over (the other goes to the lobby)"
            ).format(seat=role_word(mine), table=table.table_id)
            if free:
                said += "; " + _("{key} takes the free seat").format(key=free)
            state.say(said + ".", "error")
            return
        saved = state.my_seat(table)
        back = Resume(table.table_id) if saved is None else Reclaim(table.table_id, saved[1])
        if send(back):
            send(LobbyUnsubscribe())
            state.say(
                _("Taking your {seat} seat at table {table} back...").format(
                    seat=role_word(mine), table=table.table_id
                )
            )
        return
    if seat is None and table.players.white is not None and table.players.black is not None:
        spectate(state, send)
        return
    if send(Join(table.table_id, seat)):
        send(LobbyUnsubscribe())
        state.say(_("Joining table {table}...").format(table=table.table_id))


def spectate(state: ClientState, send: Send) -> None:
    """Watch the selected table."""
    table = state.selected_table
    if table is None:
        state.say(_("No table selected."), "error")
        return
    if send(Spectate(table.table_id)):
        send(LobbyUnsubscribe())
        state.say(_("Watching table {table}...").format(table=table.table_id))


def create(state: ClientState, send: Send) -> None:
    """Create a table with the form's options, and sit down at it."""
    msg = state.form.message()
    if send(msg):
        send(LobbyUnsubscribe())
        state.form_open = False
        state.keep_form(state.form)
        state.say(_("Creating the table..."))
    else:
        state.say(_("Not connected."), "error")


def leave_table(state: ClientState, send: Send) -> None:
    """Back to the lobby from a table: a seat in a game under way waits for its player."""
    table, seat = state.table_id, state.seat
    started = state.table_status != "waiting" and state.public is not None
    over = state.public is not None and state.public.result is not None
    if table is not None:
        send(Leave(table))
    state.leave_table()
    state.help_open = False
    send(LobbySubscribe())
    if table is not None and seat is not None and started and not over:
        state.say(
            _(
                "You stepped away from table {table}: your {seat} seat waits for you"
                " (select the table, Enter sits you down again)."
            ).format(table=table, seat=seat_name(seat))
        )
    elif table is not None and seat is not None and not started:
        state.say(
            _("You gave up your seat at table {table}. Back in the lobby.").format(table=table)
        )
    else:
        state.say(_("Back in the lobby."))
