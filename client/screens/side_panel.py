"""The column right of the board map: round, players, clocks, turn, cards; then the log."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from client.language.i18n import _
from client.language.words import first_word, level_word, seat_name
from client.model.state import ClientState, LogLine
from client.model.table import LOW_TIME, describe_control, format_clock
from client.screens.board_map import SEAT_STYLE, TOKEN_CHAR
from client.screens.canvas import Canvas, Fragment, put_clipped, wrap_fragments
from client.screens.game_over import result_lines
from protocol.fields import TimeControl
from shared.board import BRIDGES_PER_PLAYER, ISLANDS
from shared.types import Phase, Seat
from shared.views import PublicView


def render_side(state: ClientState, width: int, height: int) -> Canvas:
    """The column right of the map: the game (or, once it is over, its result) at the top, then
    the log, scrolled back by state.log_scroll lines."""
    canvas = Canvas(width, height)
    panel_w = width - 1
    info = result_lines(state, panel_w) if state.public and state.public.result else []
    info = info or side_lines(state, panel_w)
    y = 0
    for row in info:
        if y >= height:
            break
        put_clipped(canvas, 1, y, row, panel_w)
        y += 1
    if y < height:
        canvas.put(0, y, "─" * width, "class:frame")
        title = (
            " " + _("log") + " "
            if not state.log_scroll
            else " " + _("log (-{n}, PgDn)").format(n=state.log_scroll) + " "
        )
        canvas.put(2, y, title, "class:frame")
        y += 1
    room = height - y
    if room > 0:
        logs = wrap_log(state.log, panel_w)
        end = max(len(logs) - state.log_scroll, 0)
        for row in logs[max(end - room, 0) : end]:
            put_clipped(canvas, 1, y, row, panel_w)
            y += 1
    return canvas


def side_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    """The information block above the log: round, players, turn, cards; every line wrapped
    at spaces to the width (a longer translation takes two lines, never a cut word)."""
    return [line for row in _side_lines(state, width) for line in wrap_fragments(row, width)]


def _side_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    pub = state.public
    out: list[list[Fragment]] = []
    if pub is None:
        out.append([("", _("Waiting for the table's state..."))])
        return out
    phase = {
        Phase.HANDICAP: _("handicap"),
        Phase.PLAY: _("play"),
        Phase.FINAL: _("final turns ({n} left)").format(n=pub.final_turns_left),
        Phase.OVER: _("game over"),
    }[pub.phase]
    opts = _options_short(pub.options)
    table = state.table
    extra: list[str] = []
    if table is not None:
        if table.clock is not None:
            extra.append(_("clock {control}").format(control=panel_control(table.clock.control)))
        if table.level is not None:
            extra.append(_("computer: {level}").format(level=level_word(table.level)))
        if not table.hints:
            extra.append(_("no hints"))
    if state.watchers:  # version 3: who watches, as one would see them round the table
        extra.append(_("watched by {names}").format(names=", ".join(state.watchers)))
    opts = ", ".join(([opts] if opts else []) + extra)
    tournament = None if table is None else table.tournament
    if tournament is None:
        game_round = _("Round {n} of 3").format(n=pub.round)
    else:  # the tournament's round is said as such; the game's is said apart from it
        said = _("{name} · round {n}").format(name=tournament.name, n=tournament.round)
        out.append([("class:title", said)])
        game_round = _("Game: round {n} of 3").format(n=pub.round)
    if len(game_round) + 3 + len(phase) <= width:
        out.append([("class:title", game_round), ("", f" · {phase}")])
    else:  # the phase on a line of its own rather than broken after its dot
        out += [[("class:title", game_round)], [("", phase)]]
    for line in textwrap.wrap(opts, width) if opts else []:
        out.append([("class:dim", line)])
    for seat in Seat:
        out.extend(_player_lines(state, pub, seat, width))
        on_board = pub.bridges[seat].bit_count()
        tokens, held = pub.tokens[seat].bit_count(), pub.hand_sizes[seat]
        detail = "  " + _("tokens {tokens} bridges {bridges} cards {cards}").format(
            tokens=tokens, bridges=on_board, cards=held
        )
        with_supply = "  " + _(
            "tokens {tokens} bridges {bridges} ({left} left) cards {cards}"
        ).format(tokens=tokens, bridges=on_board, left=BRIDGES_PER_PLAYER - on_board, cards=held)
        if len(with_supply) <= width:  # the supply only where the whole line fits
            detail = with_supply
        out.append([("class:dim", detail)])
        if pub.open_cards[seat] and state.seat is not seat:
            out.append(
                [
                    ("class:dim", "  " + _("open:") + " "),
                    ("class:card", _cards(pub.open_cards[seat])),
                ]
            )
        known = [c for c in pub.known[seat] if c not in pub.open_cards[seat]]
        if known:
            if state.seat is seat:
                said = _("{seat} knows you hold").format(seat=seat_name(seat.other))
            else:
                said = _("holds")
            row_known = [
                ("class:dim", f"  {said} "),
                ("class:card", _cards(known)),
                ("class:dim", " " + _("(from the row)")),
            ]
            if sum(len(text) for _style, text in row_known) > width:
                row_known = row_known[:2]  # the cards matter; where they came from, less
            out.append(row_known)
    clock = clock_line(state)
    if clock:
        out.append(clock)
    out.append(_turn_line(state, pub))
    out.append(face_up_row(pub.face_up))
    out.append(
        [
            ("class:label", _("Pile") + " "),
            ("", f"{pub.pile_size}"),
            ("class:label", " · " + _("discards") + " "),
            ("", f"{len(pub.played) + pub.face_down_count}"),
            ("class:dim", " " + _("({n} down)").format(n=pub.face_down_count)),
        ]
    )
    if state.seat_view is not None:
        seat_view = state.seat_view
        opened = list(pub.open_cards[seat_view.seat])
        if opened:
            title = _("Your hand ({n} of 5, * lies open)").format(n=len(seat_view.hand))
        else:
            title = _("Your hand ({n} of 5)").format(n=len(seat_view.hand))
        out.append([("class:label", title)])
        cards: list[Fragment] = [("", " ")]
        for card in sorted(seat_view.hand):
            is_open = card in opened
            if is_open:
                opened.remove(card)
            cards.append(("class:card class:hand", ISLANDS[card] + ("*" if is_open else "")))
            cards.append(("", " "))
        if not seat_view.hand:
            cards.append(("class:dim", _("no cards")))
        out.append(cards)
    else:
        for line in textwrap.wrap(_("You are watching: no hand is shown."), width):
            out.append([("class:dim", line)])
    return out


def panel_control(control: TimeControl) -> str:
    """The time control in a few characters: '5+3', '60 s a turn'."""
    if control.per_turn or control.days:
        return describe_control(control)
    return describe_control(control).partition(" ")[0]


def face_up_row(face_up: Sequence[int]) -> list[Fragment]:
    """'Face up 1 COCO 2 JOJO 3 LALE', or 'none': the row, its cards numbered in order."""
    row: list[Fragment] = [("class:label", _("Face up") + " ")]
    for i, card in enumerate(face_up):
        row += [("class:key", f"{i + 1}"), ("class:card", f" {ISLANDS[card]} ")]
    if not face_up:
        row.append(("class:dim", _("none")))
    return row


def clock_line(state: ClientState) -> list[Fragment]:
    """The clocks, counting down: the running one marked ▶, one under 30 seconds in the
    warning colour and with a "!" (for monochrome terminals). Empty without a clock."""
    table = state.table
    if table is None or table.clock is None:
        return []
    clock = table.clock
    over = state.public is not None and state.public.result is not None
    out: list[Fragment] = [("class:label", _("Clock"))]
    for seat in Seat:
        running = clock.running is seat and not over
        if (clock.per_turn or clock.days) and not running:
            continue  # a time per turn: only the turn under way has a clock that means anything
        left = state.clock_left(seat)
        assert left is not None
        low_time = LOW_TIME if not clock.days else 12 * 3600.0
        low = left < low_time and (running or not clock.per_turn) and not over
        style = "class:clock.low" if low else "class:clock.run" if running else ""
        out.append(("", " "))
        out.append((SEAT_STYLE[seat], TOKEN_CHAR[seat]))
        out.append((style, ("▶" if running else " ") + format_clock(left) + ("!" if low else "")))
    if clock.per_turn or clock.days:
        if len(out) == 1:
            out.append(("class:dim", " " + _("stopped")))
        out.append(("class:dim", f" ({describe_control(clock.control)})"))
    return out


def _turn_line(state: ClientState, pub: PublicView) -> list[Fragment]:
    if pub.result is not None:
        winner = pub.result.winner
        if winner is None:
            return [("class:title", _("Game over: a draw"))]
        return [("class:title", _("Game over: {seat} wins").format(seat=seat_name(winner)))]
    if state.table_status == "waiting":
        return [("class:dim", _("Waiting for an opponent"))]
    mover = pub.to_move
    if state.seat is mover:
        if pub.phase is Phase.HANDICAP:
            text = _("Your turn: {n} handicap").format(n=pub.handicap_left)
        elif pub.phase is Phase.FINAL:
            text = _("Your turn: the last one")
        elif pub.opponent_abstained:
            text = _("Your turn: you must draw")
        else:
            text = _("Your turn")
        return [("class:you", "▶ " + text)]
    text = _("{seat} to move ({name})").format(seat=seat_name(mover), name=state.player_name(mover))
    return [(SEAT_STYLE[mover], "▶ " + text)]


def _cards(cards: Iterable[int]) -> str:
    return " ".join(ISLANDS[c] for c in sorted(cards)) or _("none")


def _player_lines(
    state: ClientState, pub: PublicView, seat: Seat, width: int
) -> list[list[Fragment]]:
    """The seat, its player and the points: on one line where the name fits beside them,
    else the name whole on the lines under them (never cut: 'Ann (guest) (you)' in German)."""
    name = state.player_name(seat)
    info = None if state.players is None else state.players.get(seat)
    if info is not None and info.rating is not None:
        name += f" {info.rating}"
    if state.seat is seat:
        name += " " + _("(you)")
    if info is not None and info.computer:
        name += " " + _("[AI]")  # its level is on the line of the options
    if info is not None and not info.connected and not info.computer:
        name += " " + _("(away)")
    points = _("{n} pt").format(n=pub.scores[seat])
    to_move = pub.to_move is seat and pub.result is None
    room = max(width - 2 - len(seat_name(seat)) - 1 - len(points) - 3, 4)
    head = (SEAT_STYLE[seat] + " class:seatname", f"{TOKEN_CHAR[seat]} {seat_name(seat)}")
    tail = [("class:points", points), ("class:arrow", " ◀" if to_move else "")]
    if len(name) <= room:
        return [[head, ("", " " + name.ljust(room) + " "), *tail]]
    gap = max(width - len(head[1]) - len(points) - 2, 1)
    first: list[Fragment] = [head, ("", " " * gap), *tail]
    wrapped = textwrap.wrap(name, max(width - 2, 8))
    return [first, *([("", "  " + line)] for line in wrapped)]


def wrap_log(log: Sequence[LogLine], width: int) -> list[list[Fragment]]:
    out: list[list[Fragment]] = []
    for entry in log:
        style = f"class:log.{entry.kind}"
        parts = textwrap.wrap(entry.text, max(width, 10), subsequent_indent="  ") or [""]
        out.extend([(style, part)] for part in parts)
    return out


def _options_short(options: object) -> str:
    v1 = getattr(options, "variant1", False)
    v2 = getattr(options, "variant2", False)
    seat = getattr(options, "handicap_seat", None)
    bridges = getattr(options, "handicap_bridges", 0)
    parts = []
    if v1:
        parts.append(_("Variant 1"))
    if v2:
        parts.append(_("Variant 2"))
    if seat is not None and bridges:
        label = seat_name(seat) if isinstance(seat, Seat) else first_word(str(seat))
        parts.append(_("handicap {seat} +{n}").format(seat=label, n=bridges))
    return ", ".join(parts)
