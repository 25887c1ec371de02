"""Moderation in the terminal client: the lobby line's report and moderator commands (in
English and in the player's words), the table's report, what the client says of the server's
moderation messages, the moderator's panels at 80x24; and end to end against a real server, a
player reporting from the lobby's line and a moderator muting them from theirs."""

from __future__ import annotations

import time
from pathlib import Path

import attrs
import pytest

from client.language.i18n import set_language
from client.model.commands import Outcome, interpret
from client.model.lobby_commands import read_lobby_line
from client.model.moderation import seconds_of
from client.model.state import ClientState
from client.screens.lobby_screen import render_lobby
from protocol.messages import Welcome
from protocol.moderation_messages import (
    CloseReport,
    GetModeration,
    Moderate,
    Moderation,
    ModerationEntry,
    ModerationNote,
    ReportChatLine,
    ReportInfo,
    ReportPlayer,
    Sanction,
)
from protocol.player_messages import LoggedIn
from tests.client.test_app import until
from tests.client.test_players import account_player
from tests.conftest import ServerFactory
from tests.server.moderation_setup import moderators_db


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def test_the_lobby_line_reads_the_moderators_commands() -> None:
    assert read_lobby_line("report Bob spams the lobby").messages == (
        ReportPlayer("Bob", "spams the lobby", None),
    )
    assert read_lobby_line("mute Bob 30m spam in the lobby").messages == (
        Moderate("mute", "Bob", "spam in the lobby", 1800),
    )
    assert read_lobby_line("ban 203.0.113.0/24 7d a flood").messages == (
        Moderate("ban", "203.0.113.0/24", "a flood", 7 * 86400),
    )
    # what is not an address or a network is a player, whose addresses the server bans unseen
    assert read_lobby_line("ban Eve 1d a flood").messages == (
        Moderate("ban_player", "Eve", "a flood", 86400),
    )
    assert read_lobby_line("unban Eve lifted").messages == (
        Moderate("unban_player", "Eve", "lifted", None),
    )
    assert read_lobby_line("unban 2001:db8::/64 lifted").messages == (
        Moderate("unban", "2001:db8::/64", "lifted", None),
    )
    assert read_lobby_line("close t1 abusive names").messages == (
        Moderate("close_table", "t1", "abusive names", None),
    )
    assert read_lobby_line("disable Eve a second account").messages == (
        Moderate("disable", "Eve", "a second account", None),
    )
    request = read_lobby_line("closereport 3 muted for a day")
    assert request.messages == (CloseReport(3, "muted for a day"),)
    assert request.panel == "reports"
    assert read_lobby_line("modlog").messages == (GetModeration(),)
    assert read_lobby_line("modlog").panel == "modlog"
    for refused in ("mute Bob spam", "mute Bob 30x spam", "report Bob", "closereport x y"):
        request = read_lobby_line(refused)
        assert request.refused and not request.messages, refused
    assert "not a time" in (read_lobby_line("mute Bob 30x spam").refused or "")
    assert [seconds_of(t) for t in ("90s", "30m", "2h", "7d", "7", "d", "")] == [
        90, 1800, 7200, 604800, None, None, None,
    ]  # fmt: skip


def test_the_words_of_german_and_italian() -> None:
    set_language("de")
    assert read_lobby_line("stummschalten Bob 1h zieht nur Spam").messages == (
        Moderate("mute", "Bob", "zieht nur Spam", 3600),
    )
    assert read_lobby_line("melden Bob beleidigt").messages == (
        ReportPlayer("Bob", "beleidigt", None),
    )
    set_language("it")
    assert read_lobby_line("banna 198.51.100.7 1d flood").messages == (
        Moderate("ban", "198.51.100.7", "flood", 86400),
    )


def test_a_report_at_the_table_keeps_its_words() -> None:
    assert interpret("report Bob draws out the game", None, None) == Outcome(
        "report", "Bob draws out the game"
    )
    set_language("de")
    # 'ziehe' is the notation's draw in German: a reason is not read as a command
    assert interpret("melden Bob ziehe nie", None, None) == Outcome("report", "Bob ziehe nie")
    assert interpret("melden Bob", None, None).kind == "refused"


PANEL = Moderation(
    [
        ReportInfo(
            4, "Ann", "Bob", "insults", "t1", time.time(),
            [ReportChatLine("lobby", "Bob", "you are all idiots", time.time()),
             ReportChatLine("table", "Bob", "you play like a fish", None)],
        )
    ],
    [
        ModerationEntry(time.time(), "Mira", "ban_player", "Dan", "a flood", time.time() + 600),
        ModerationEntry(time.time(), "Mira", "mute", "Cid", "spam", time.time() + 1800),
    ],
    [Sanction("Cid", time.time() + 1800, "spam", "Mira")],
    [
        Sanction("203.0.113.0/24", time.time() + 86400, "a flood", "Mira"),
        Sanction("Dan", time.time() + 600, "a flood", "Mira", of_player=True),
    ],
    ["Eve"],
)  # fmt: skip


def moderator_state() -> ClientState:
    state = ClientState(name="Mira")
    state.handle(Welcome(4, "s", 1, 1, "Mira", None, True))
    state.handle(LoggedIn("Mira", 1500, 350, 0, None, [], False))
    return state


def test_the_moderators_panels_at_80x24() -> None:
    state = moderator_state()
    state.handle(PANEL)
    assert "You are a moderator" in state.message
    state.accounts.open("reports")
    text = render_lobby(state, 80, 24).text()
    assert "Open reports" in text and "Bob, reported by Ann" in text
    assert "[lobby] Bob: you are all idiots" in text
    assert "[table] Bob: you play like a fish" in text
    assert "closereport N NOTE" in text
    state.accounts.open("modlog")
    text = render_lobby(state, 80, 24).text()
    assert "Moderation log" in text and "Mira muted Cid" in text
    assert "Mira banned the addresses of Dan" in text
    assert "Muted: Cid (" in text and "Banned: 203.0.113.0/24 (" in text and "Disabled: Eve" in text
    assert "the addresses of Dan (" in text
    set_language("de")
    text = render_lobby(state, 80, 24).text()
    assert "Mira hat Cid stummgeschaltet" in text
    assert "Mira hat die Adressen von Dan gebannt" in text
    set_language("it")
    assert "Mira ha silenziato Cid" in render_lobby(state, 80, 24).text()
    set_language("en")
    set_language("de")
    entry = ModerationEntry(time.time() + 1, "Mira", "unban_player", "Dan", "lifted", None)
    state.handle(attrs.evolve(PANEL, log=[entry, *PANEL.log]))
    assert state.message == (
        "Erledigt und im Protokoll: Mira hat den Bann der Adressen von Dan aufgehoben."
    )
    set_language("en")
    state.handle(ModerationNote("moderator_revoked", None, None))
    assert state.accounts.moderation is None and state.accounts.panel == "tables"


def test_a_muted_player_is_told_until_when() -> None:
    state = moderator_state()
    until_at = time.time() + 1800
    state.handle(ModerationNote("muted", until_at, "spam"))
    shown = time.strftime("%H:%M", time.localtime(until_at))
    said = state.message
    assert f"muted you until {shown}" in said or f"muted you until {time.strftime('%Y')}" in said
    assert "spam" in said


async def test_a_report_and_a_mute_from_the_lobby_line(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(db=moderators_db(tmp_path, "Mira"), password_cost="test")
    async with (
        account_player(server, "Mira", tmp_path, True) as mira,
        account_player(server, "Bob", tmp_path, True) as bob,
    ):
        await until(lambda: mira.state.accounts.moderation is not None, "the panel")
        bob.type(":")
        bob.line("report Mira abuses her power")
        await until(lambda: "Your report is with" in bob.state.message, "the thanks")
        mira.type(":")
        mira.line("reports")
        await until(lambda: mira.state.accounts.panel == "reports", "the reports")
        await until(
            lambda: (
                mira.state.accounts.moderation is not None
                and len(mira.state.accounts.moderation.reports) == 1
            ),
            "Bob's report",
        )
        mira.type("\r")  # Enter on the report: its closing begun on the line
        await until(lambda: mira.client.ui.lobby.buffer.text == "closereport 1 ", "the line")
        mira.line("he is told")
        await until(
            lambda: (
                mira.state.accounts.moderation is not None
                and not mira.state.accounts.moderation.reports
            ),
            "the report closed",
        )
        mira.type(":")
        mira.line("mute Bob 30m spam in the lobby")
        await until(lambda: "muted you until" in bob.state.message, "Bob told")
        bob.type("'")
        bob.line("hello?")
        await until(lambda: "A moderator muted you until" in bob.state.message, "refused")
        moderation = mira.state.accounts.moderation
        assert moderation is not None and [m.target for m in moderation.mutes] == ["Bob"]


def test_the_tournament_commands_and_their_log_lines() -> None:
    assert read_lobby_line("closetournament 5c0ffee1 an abusive name").messages == (
        Moderate("close_tournament", "5c0ffee1", "an abusive name"),
    )
    assert read_lobby_line("handtournament 5c0ffee1 Bob Ann left the club").messages == (
        Moderate("hand_tournament", "5c0ffee1", "Ann left the club", name="Bob"),
    )
    for refused in ("closetournament 5c0ffee1", "handtournament 5c0ffee1 Bob"):
        request = read_lobby_line(refused)
        assert request.refused and not request.messages, refused
    state = moderator_state()
    log = [
        ModerationEntry(
            time.time(), "operator", "hand_tournament", "5c0ffee1", "away", None, "Bob"
        ),
        ModerationEntry(time.time(), "Mira", "close_tournament", "77aa0b1e", "spam", None),
    ]
    state.handle(attrs.evolve(PANEL, log=log))
    state.accounts.open("reports")
    text = render_lobby(state, 80, 24).text()
    assert "closetournament ID REASON" in text and "Bob, reported by Ann" in text
    state.accounts.open("modlog")
    text = render_lobby(state, 80, 24).text()
    assert "the operator gave the tournament 5c0ffee1 to Bob to direct" in text
    assert "Mira ended the tournament 77aa0b1e" in text
    set_language("de")
    assert read_lobby_line("turnierschließen 5c0ffee1 Spam").messages == (
        Moderate("close_tournament", "5c0ffee1", "Spam"),
    )
    text = render_lobby(state, 80, 24).text()
    assert "Mira hat das Turnier 77aa0b1e beendet" in text
    # the operator's own command: said as a role, in the reader's language
    assert "der Betreiber hat die Leitung des Turniers 5c0ffee1 an Bob übergeben" in text
    set_language("it")
    assert read_lobby_line("ceditorneo 5c0ffee1 Bob via").messages == (
        Moderate("hand_tournament", "5c0ffee1", "via", name="Bob"),
    )
