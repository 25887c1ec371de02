"""Moderation over real sockets (protocol version 4): the operator makes a moderator while the
server runs; each of a moderator's actions (mute, close a table, disable, ban) and its undoing,
with what the others' clients are actually sent; the players' reports and their closing; a
non-moderator refused, changing nothing; and all of it kept across a restart, on SQLite."""

from __future__ import annotations

import asyncio
import gettext
import subprocess
import time
from pathlib import Path

import msgpack
import pytest

from catalogue import DOMAIN, LOCALE_DIR
from protocol.errors import ErrorCode
from protocol.messages import (
    Chat,
    ChatMessage,
    Command,
    Error,
    GetRecord,
    Join,
    LobbySubscribe,
    PlayersChanged,
    Record,
    Spectate,
    State,
    TableClosed,
    Update,
)
from protocol.moderation_messages import (
    CloseReport,
    GetModeration,
    Moderate,
    ModerationNote,
    ReportPlayer,
)
from protocol.player_messages import (
    Games,
    GetGames,
    LobbyChat,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    Register,
)
from server.cli import moderation_cli
from server.core.store import ModerationLogOp
from server.net.app import KahunaServer
from server.storage.sqlite_store import SqliteStorage
from tests.conftest import Client, ServerFactory, create_table, server_config
from tests.server.moderation_setup import (
    WORDS,
    moderated,
    moderation,
    moderators_db,
    neighbour,
    player,
    refusal,
)
from tests.server.operator_commands import as_program
from tests.server.test_accounts_cli import run


def heard(client: Client, text: str) -> bool:
    """Whether any frame the client received holds the text (its bytes as msgpack packs it)."""
    packed = msgpack.packb(text)
    return any(packed in frame for frame in client.frames)


async def test_the_operator_makes_a_moderator_while_the_server_runs(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    db = str(tmp_path / "db.sqlite3")
    server = await make_server(db=db, password_cost="test", account_actions_interval=0.1)
    mod = await player(server.port, "Mira")
    await mod.send(GetModeration())
    await mod.expect_error("not_moderator")
    done = await asyncio.to_thread(run, "moderator", "Mira", "--db", db)
    assert done.returncode == 0, done.stderr
    assert "Mira is a moderator" in done.stdout
    state = await moderation(mod)
    assert [(e.moderator, e.action, e.target) for e in state.log] == [
        ("operator", "moderator", "Mira")
    ]
    again = await asyncio.to_thread(run, "moderator", "Mira", "--db", db)
    assert "Mira is a moderator already" in again.stdout
    revoked = await asyncio.to_thread(run, "moderator", "mira", "--revoke", "--db", db)
    assert "Mira is no longer a moderator" in revoked.stdout
    note = await mod.expect(ModerationNote)
    assert note.note == "moderator_revoked"
    await mod.send(Moderate("mute", "Nobody", "spam", 60))
    await mod.expect_error("not_moderator")
    # the log in the operator's language: English with no locale, German from the locale,
    # Italian by --lang over a German locale; the operator said as a role, never its code
    for args, locale, said in (
        ((), None, ["the operator made Mira a moderator",
                    "the operator took the moderator's rights from Mira"]),
        ((), "de_DE.UTF-8", ["der Betreiber hat Mira zum Moderator gemacht",
                             "der Betreiber hat Mira die Moderatorrechte entzogen"]),
        (("--lang", "it"), "de_DE.UTF-8", ["il gestore ha nominato moderatore Mira",
                                           "il gestore ha tolto i diritti di moderatore a Mira"]),
    ):  # fmt: skip
        shown = await asyncio.to_thread(run_moderation, "log", *args, "--db", db, locale=locale)
        assert shown.returncode == 0, shown.stderr
        lines = shown.stdout.splitlines()
        assert [line.split("  ", 1)[1] for line in lines] == said, shown.stdout
        assert "moderator_revoked" not in shown.stdout
    await mod.close()


def run_moderation(*args: str, locale: str | None = None) -> subprocess.CompletedProcess[str]:
    """kahuna-server moderation ARGS, as a process of its own, with LANG=`locale` (none: no
    locale variable at all)."""
    return as_program("moderation", *args, locale=locale)


AT = 1.7e9
UNTIL = AT + 1800
# a reason long enough to wrap at 80 columns, as moderators write them
LONG = "a flood of accounts from one network, the third this week, each spamming the lobby"
LOGGED = [
    ModerationLogOp(AT, "Mira", "mute", "Bob", "spam in the lobby", UNTIL),
    ModerationLogOp(AT + 60, "Mira", "ban_player", "Bob", LONG, UNTIL),
    ModerationLogOp(AT + 120, "Mira", "close_report", "4", "muted him"),
    ModerationLogOp(AT + 180, "operator", "hand_tournament", "5c0ffee1", "Ann left", None, "Cid"),
    ModerationLogOp(AT + 240, "Mira", "warn", "Bob", "an action of a newer server"),
]


def stamp(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", [
            f"Mira muted Bob until {stamp(UNTIL)}: spam in the lobby",
            f"Mira banned the addresses of Bob until {stamp(UNTIL)}: {LONG}",
            "Mira closed report 4: muted him",
            "the operator gave the tournament 5c0ffee1 to Cid to direct: Ann left",
            "Mira warn Bob: an action of a newer server",
        ]),
        ("de", [
            f"Mira hat Bob stummgeschaltet bis {stamp(UNTIL)}: spam in the lobby",
            f"Mira hat die Adressen von Bob gebannt bis {stamp(UNTIL)}: {LONG}",
            "Mira hat die Meldung 4 erledigt: muted him",
            "der Betreiber hat die Leitung des Turniers 5c0ffee1 an Cid übergeben: Ann left",
            "Mira warn Bob: an action of a newer server",
        ]),
    ],
)  # fmt: skip
def test_the_log_says_each_action_in_the_operators_language(
    lang: str, said: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run in-process on a stopped server's database: a line each (standard output is no
    terminal here), the reasons as typed; at a terminal 80 columns wide, each line wrapped
    under its sentence."""
    db = tmp_path / "db.sqlite3"
    storage = SqliteStorage(db)
    storage.write(list(LOGGED))
    storage.close()
    assert moderation_cli.main(["log", "--lang", lang, "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{stamp(e.at)}  {line}" for e, line in zip(LOGGED, said, strict=True)]

    words = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True).gettext
    wrapped = moderation_cli.render_log(LOGGED, words, 80).splitlines()
    assert len(wrapped) > len(LOGGED) and all(len(line) <= 80 for line in wrapped)
    starts = [i for i, line in enumerate(wrapped) if not line.startswith(" ")]
    assert len(starts) == len(LOGGED)
    for first, end, whole in zip(starts, [*starts[1:], len(wrapped)], out, strict=True):
        under = wrapped[first + 1 : end]
        assert all(line.startswith(" " * 18) and line[18] != " " for line in under)
        assert " ".join(wrapped[first:end]).split() == whole.split()  # no word lost or cut


def test_an_empty_log_says_so_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db.sqlite3"
    SqliteStorage(db).close()
    for lang, said in (("en", "Nothing is in the log yet."), ("it", "Il registro è ancora vuoto.")):
        assert moderation_cli.main(["log", "--lang", lang, "--db", str(db)]) == 0
        assert capsys.readouterr().out == said + "\n"


async def test_a_muted_players_chat_reaches_nobody_until_unmuted(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server)  # and the panel at login read
    ann, bob = await player(server.port, "Ann"), await player(server.port, "Bob")
    for client in (mod, ann, bob):
        await client.send(LobbySubscribe())
        await client.expect(LobbyChatMessage)  # the history
    joined, _ = await create_table(ann)
    await bob.send(Join(joined.table_id, "black"))
    await bob.expect(State)
    await mod.send(Moderate("mute", "bob", "spam in the lobby", 600))
    note = await bob.expect(ModerationNote)
    assert note.note == "muted" and note.reason == "spam in the lobby"
    state = await moderation(mod)
    assert note.until is not None
    assert [(m.target, m.until, m.moderator) for m in state.mutes] == [("Bob", note.until, "Mira")]
    await bob.send(LobbyChat("buy cheap gold"))
    error = await bob.expect_error("muted")
    assert error.params == {"until": str(int(note.until))}
    await bob.send(Chat(joined.table_id, "cheap gold at the table"))
    await bob.expect_error("muted")
    await ann.send(LobbyChat("is anyone there"))  # the others still speak
    assert (await bob.expect(LobbyChatMessage)).entries[0].text == "is anyone there"
    await mod.expect(LobbyChatMessage)
    await ann.quiet(0.3)
    await mod.quiet(0.1)
    for client in (ann, mod):
        assert not heard(client, "buy cheap gold")
        assert not heard(client, "cheap gold at the table")
    await mod.send(Moderate("unmute", "Bob", "he promised", None))
    assert (await bob.expect(ModerationNote)).note == "unmuted"
    await moderation(mod, lambda s: not s.mutes)
    await bob.send(LobbyChat("sorry"))
    assert (await ann.expect(LobbyChatMessage)).entries[0].text == "sorry"
    await bob.send(Chat(joined.table_id, "sorry here too"))
    assert (await ann.expect(ChatMessage)).text == "sorry here too"
    assert await refusal(mod, Moderate("unmute", "Bob", "again", None)) == "not_muted"
    for client in (mod, ann, bob):
        await client.close()


async def test_a_non_moderator_is_refused_and_nothing_changes(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server = await make_server(db=moderators_db(tmp_path, "Mira"), password_cost="test")
    ann, bob = await player(server.port, "Ann"), await player(server.port, "Bob")
    joined, _ = await create_table(ann)
    guest = await Client.connect(server.port, "Guest")
    for client in (bob, guest):
        for message in (
            Moderate("mute", "Ann", "x", 600),
            Moderate("disable", "Ann", "x"),
            Moderate("ban", "127.0.0.1", "x", 600),
            Moderate("close_table", joined.table_id, "x"),
            GetModeration(),
            CloseReport(1, "x"),
        ):
            await client.send(message)
            await client.expect_error("not_moderator")
    await ann.send(LobbyChat("still here"))
    assert (await ann.expect(LobbyChatMessage)).entries[0].text == "still here"
    assert joined.table_id in server.lobby.tables  # the table stands
    again = await Client.connect(server.port, "Again")  # nobody was banned
    for client in (ann, bob, guest, again):
        await client.close()


async def test_a_closed_table_ends_abandoned_unrated_and_archived(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server)
    ann, bob = await player(server.port, "Ann"), await player(server.port, "Bob")
    joined, _ = await create_table(ann)
    table_id = joined.table_id
    await bob.send(Join(table_id, "black"))
    version = (await bob.expect(State)).version
    await ann.expect(PlayersChanged)
    for mover in (ann, bob, ann, bob):  # two turns each: the game would count, were it rated
        await mover.send(Command(table_id, version, "draw"))
        for client in (ann, bob):
            version = (await client.expect(Update)).version
    ratings = [(await rating(c)) for c in (ann, bob)]
    watcher = await Client.connect(server.port, "Watcher")
    await watcher.send(Spectate(table_id))
    await watcher.expect(State)
    assert await refusal(mod, Moderate("close_table", table_id, "")) == "no_reason"
    await mod.send(Moderate("close_table", table_id, "abusive names"))
    for client in (ann, bob, watcher):
        update = await client.expect(Update)
        public = update.view.get("public", update.view)  # a spectator's view is the public part
        result = public["result"]
        assert result == {"winner": None, "kind": "abandoned"}
        closed = await client.expect(TableClosed)
        assert (closed.table_id, closed.code) == (table_id, "closed_by_moderator")
    state = await moderation(mod)
    assert [(e.action, e.target, e.reason) for e in state.log] == [
        ("close_table", table_id, "abusive names")
    ]
    assert table_id not in server.lobby.tables
    await ann.send(GetGames(None))
    games = await ann.expect(Games)
    (game,) = games.games
    assert (game.table_id, game.ending, game.rated, game.winner) == (
        table_id, "abandoned", False, None,
    )  # fmt: skip
    assert game.white_change is None and game.black_change is None
    assert [(await rating(c)) for c in (ann, bob)] == ratings
    await ann.send(GetRecord(table_id))
    record = await ann.expect(Record)
    assert "game abandoned" in record.text
    await mod.send(Moderate("close_table", table_id, "again"))
    await mod.expect_error("no_such_table")
    for client in (mod, ann, bob, watcher):
        await client.close()


async def rating(client: Client) -> tuple[int | None, list[int]]:
    """The player's rating and rated wins, losses and draws."""
    await client.send(GetGames(None))
    games = await client.expect(Games)
    return games.rating, games.stats.rated


async def test_a_disabled_account_cannot_log_in_until_enabled(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server, "Otto")
    await player(server.port, "Otto")
    bob = await player(server.port, "Bob")
    assert await refusal(mod, Moderate("disable", "Mira", "me")) == "self"
    assert await refusal(mod, Moderate("disable", "Otto", "another moderator")) == "moderator"
    await mod.send(Moderate("disable", "Bob", "a spammer's account"))
    out = await bob.expect(LoggedOut)
    assert out.reason == "account_changed"
    state = await moderation(mod)
    assert state.disabled == ["Bob"]
    again = await Client.connect(server.port, "Bob2")
    await again.send(Login("Bob", WORDS))
    await again.expect_error("bad_login")
    await mod.send(Moderate("enable", "Bob", "appealed"))
    await moderation(mod, lambda s: not s.disabled)
    await again.send(Login("Bob", WORDS))
    assert (await again.expect(LoggedIn)).name == "Bob"
    for client in (mod, bob, again):
        await client.close()


async def test_a_banned_address_is_refused_and_one_beside_it_is_not(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server)
    before, refused = await neighbour(server.port)
    assert before is not None and refused is None
    assert await refusal(mod, Moderate("ban", "127.0.0.0/8", "everyone", 3600)) == "self"
    assert await refusal(mod, Moderate("ban", "127.0.0.300", "typo", 3600)) == "bad_network"
    assert (
        await refusal(mod, Moderate("ban", "127.0.0.2", "too long", 400 * 86400)) == "bad_duration"
    )
    await mod.send(Moderate("ban", "127.0.0.2/31", "a flood of accounts", 3600))
    state = await moderation(mod)
    assert [(b.target, b.reason) for b in state.bans] == [("127.0.0.2/31", "a flood of accounts")]
    # the connection open from there is closed, told why
    error = await before.expect(Error)
    assert error.code == ErrorCode.ADDRESS_BANNED.value
    client, refused = await neighbour(server.port)
    assert client is None and refused is not None and refused.code == "address_banned"
    honest = await Client.connect(server.port, "Honest")  # 127.0.0.1, beside it
    await mod.send(Moderate("unban", "127.0.0.3/31", "lifted", None))
    await moderation(mod, lambda s: not s.bans)
    after, refused = await neighbour(server.port)
    assert after is not None and refused is None
    for each in (mod, honest, after):
        await each.close()


async def test_a_player_banned_by_name_is_refused_and_the_moderator_never_sees_the_address(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server)
    await (await player(server.port, "Gone")).close()
    spammer, refused = await neighbour(server.port)
    assert spammer is not None and refused is None
    await spammer.send(Register("Spammer", WORDS))
    await spammer.expect(LoggedIn)
    assert await refusal(mod, Moderate("ban_player", "Gone", "no address", 3600)) == "no_connection"
    await mod.send(Moderate("ban_player", "Nobody", "typo", 3600))
    await mod.expect_error("no_such_player")
    await mod.send(Moderate("ban_player", "Spammer", "a flood of accounts", 3600))
    state = await moderation(mod)
    assert [(b.target, b.of_player, b.reason) for b in state.bans] == [
        ("Spammer", True, "a flood of accounts")
    ]
    assert [(e.action, e.target) for e in state.log][:1] == [("ban_player", "Spammer")]
    # the player's connection is closed, told why; the next one from there is refused
    error = await spammer.expect(Error)
    assert error.code == ErrorCode.ADDRESS_BANNED.value
    client, refused = await neighbour(server.port)
    assert client is None and refused is not None and refused.code == "address_banned"
    honest = await player(server.port, "Honest")  # 127.0.0.1 is still welcome
    await mod.send(Moderate("unban_player", "Spammer", "lifted", None))
    state = await moderation(mod, lambda s: not s.bans)
    assert [(e.action, e.target) for e in state.log][:1] == [("unban_player", "Spammer")]
    assert (
        await refusal(mod, Moderate("unban_player", "Spammer", "again", None))
        == "not_banned_player"
    )
    after, refused = await neighbour(server.port)
    assert after is not None and refused is None
    # nothing the moderator was sent names the address, in any form
    assert mod.frames and not any(b"127.0.0.2" in frame for frame in mod.frames)
    for each in (mod, honest, after):
        await each.close()


async def test_a_report_carries_the_chat_around_it_and_is_closed_with_a_note(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server)
    ann, bob = await player(server.port, "Ann"), await player(server.port, "Bob")
    await ann.send(LobbyChat("hello all"))
    await ann.expect(LobbyChatMessage)
    await bob.send(LobbyChat("you are all idiots"))
    await bob.expect(LobbyChatMessage)
    joined, _ = await create_table(ann)
    await bob.send(Join(joined.table_id, "black"))
    await bob.expect(State)
    await bob.send(Chat(joined.table_id, "you play like a fish"))
    await ann.expect(ChatMessage)
    assert await refusal(ann, ReportPlayer("Ann", "me", None)) == "self"
    await ann.send(ReportPlayer("Bob", "insults in the lobby and at our table", joined.table_id))
    assert (await ann.expect(ModerationNote)).note == "reported"
    state = await moderation(mod, lambda s: s.reports)
    (report,) = state.reports
    assert (report.reporter, report.name, report.table_id) == ("Ann", "Bob", joined.table_id)
    lines = [(c.place, c.sender, c.text) for c in report.chat]
    assert ("lobby", "Bob", "you are all idiots") in lines
    assert ("table", "Bob", "you play like a fish") in lines
    assert await refusal(ann, ReportPlayer("Bob", "again", None)) == "already_reported"
    guest = await Client.connect(server.port, "Guest")
    await guest.send(ReportPlayer("Bob", "x", None))
    await guest.expect_error("login_required")
    await mod.send(CloseReport(report.report_id, "muted him for a day"))
    state = await moderation(mod, lambda s: not s.reports)
    assert (state.log[0].action, state.log[0].target, state.log[0].reason) == (
        "close_report", str(report.report_id), "muted him for a day",
    )  # fmt: skip
    assert await refusal(mod, CloseReport(report.report_id, "twice")) == "no_such_report"
    for client in (mod, ann, bob, guest):
        await client.close()


async def test_moderation_is_kept_across_a_restart(tmp_path: Path) -> None:
    db = moderators_db(tmp_path, "Mira")
    config = server_config(db=db, password_cost="test")
    first = KahunaServer(config)
    await first.start()
    try:
        mod = await player(first.port, "Mira")
        await moderation(mod)
        for name in ("Ann", "Bob", "Eve"):
            await (await player(first.port, name)).close()
        ann = await player(first.port, "Ann", register=False)
        await mod.send(Moderate("mute", "Bob", "spam", 3600))
        await mod.send(Moderate("disable", "Eve", "a second account"))
        await mod.send(Moderate("ban", "127.0.0.2", "a flood", 3600))
        await ann.send(ReportPlayer("Bob", "spam again", None))
        await ann.expect(ModerationNote)
        await moderation(mod, lambda s: s.bans and s.reports and s.disabled and s.mutes)
        await mod.close()
        await ann.close()
    finally:
        await first.stop()
    second = KahunaServer(config)
    await second.start()
    try:
        mod = await player(second.port, "Mira", register=False)
        state = await moderation(mod)
        assert [m.target for m in state.mutes] == ["Bob"]
        assert [b.target for b in state.bans] == ["127.0.0.2/32"]
        assert state.disabled == ["Eve"]
        assert [(r.reporter, r.name, r.reason) for r in state.reports] == [
            ("Ann", "Bob", "spam again")
        ]
        assert [e.action for e in state.log] == ["ban", "disable", "mute"]
        bob = await player(second.port, "Bob", register=False)
        await bob.send(LobbyChat("spam"))
        await bob.expect_error("muted")
        eve = await Client.connect(second.port, "Eve2")
        await eve.send(Login("Eve", WORDS))
        await eve.expect_error("bad_login")
        client, refused = await neighbour(second.port)
        assert client is None and refused is not None and refused.code == "address_banned"
        for each in (mod, bob, eve):
            await each.close()
    finally:
        await second.stop()


async def test_a_game_against_the_computer_closed_counts_nowhere(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server, mod = await moderated(tmp_path, make_server)
    ann = await player(server.port, "Ann")
    joined, _ = await create_table(ann, vs_computer=True)
    await mod.send(Moderate("close_table", joined.table_id, "a test table"))
    closed = await ann.expect(TableClosed)
    assert closed.code == "closed_by_moderator"
    await ann.send(GetGames(None))
    games = await ann.expect(Games)
    assert [(g.table_id, g.ending) for g in games.games] == [(joined.table_id, "abandoned")]
    assert games.stats.computer == {} and games.stats.rated == [0, 0, 0]
    for client in (mod, ann):
        await client.close()
