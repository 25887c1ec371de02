"""The lobby's side of version 3 in the running application: its command line (with the
password asked without echo), the panels' actions (a game of the list resumed, or replayed from
its record), and the call for the player's attention (the bell, the window title)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.buffer import Buffer

from client.language.i18n import _, ngettext
from client.language.words import record_problem
from client.model import moderation
from client.model.lobby_commands import Asking, LobbyRequest, local_words, read_lobby_line
from client.model.sending import Send
from client.model.state import ClientState, too_long_chat
from client.model.table import TableTournament
from client.model.tournaments import TournamentRequest, read_tournament_line
from client.screens.analysis_view import start_analysis
from client.screens.replay import ReplayViewer, timeline
from protocol.account_messages import DeleteAccount, GameRecord, GameRecords, GetGameRecords
from protocol.mail_messages import ResetPassword
from protocol.messages import Error, GetRecord, LobbyUnsubscribe, Record, ServerMessage
from protocol.player_messages import (
    AnswerChallenge,
    ChangePassword,
    GetGames,
    GetRatings,
    LobbyChat,
    Login,
    Register,
    Resume,
)
from shared.record import RecordError, read_record


class LobbyLine:
    def __init__(
        self,
        state: ClientState,
        send: Send,
        save_dir: Path,
        ring: Callable[[str], None],
    ) -> None:
        self.state = state
        self.send = send
        self.save_dir = save_dir
        self.ring = ring  # the bell and the window title, unless --quiet
        self.typing = False
        self.asking: tuple[Asking, str] | None = None
        self._old_password: str | None = None
        self._delete_password: str | None = None  # typed, waiting for the name's confirmation
        self._download: list[GameRecord] = []  # the pages of `download` received so far
        # a new password typed once, waiting to be typed again: what it is for, and it
        self._first: tuple[Asking, str] | None = None
        # the login this line sent (name): refused, the password is asked again
        self._login_sent: str | None = None
        self.buffer = Buffer(multiline=False, accept_handler=self._accept)
        self.replay: ReplayViewer | None = None
        self.help_open = False  # the lobby's help: F1 or `:help`
        self.help_page = 0  # its page, where it is longer than the screen (PgDn, PgUp)
        self.replay_text = ""
        self._wanted_record: str | None = None
        self._analyse_it = False
        # the table whose finished game is replayed over it: q goes back to it, not to the lobby
        self.over_table: str | None = None
        self.invalidate: Callable[[], None] = lambda: None  # the application's, for the analysis

    # ----- the command line ---------------------------------------------------------------

    def open(self, text: str = "") -> None:
        self.typing = True
        self.buffer.text = text
        self.buffer.cursor_position = len(text)

    def cancel(self) -> None:
        asked = self.asking
        self.typing, self.asking, self._old_password, self._first = False, None, None, None
        self._delete_password = None
        self.buffer.reset()
        if asked is None:
            return
        if asked[0] in ("delete_password", "delete_confirm"):
            self.state.say(_("Your account is not deleted."))
            return
        # a password asked and not given: the line above it asked for it, and is now stale
        if self.state.accounts.account is not None:
            self.state.say(_("Your password is unchanged."))
        else:
            self.state.say(_("Not logged in: you play as {name}.").format(name=self.state.name))

    def prompt(self) -> str:
        if self.asking is None:
            return ": "
        what, name = self.asking
        if what == "old_password":
            return _("old password (not shown): ")
        if what in ("new_password", "reset"):
            return _("new password (not shown): ")
        if what == "again":
            return _("the same password again (not shown): ")
        if what == "delete_password":
            return _("password of {name}, to delete the account (not shown): ").format(name=name)
        if what == "delete_confirm":
            return _("type {name} to delete the account for good: ").format(name=name)
        return _("password for {name} (not shown): ").format(name=name)

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text
        if self.asking is not None:
            self._password_given(text)
            return False
        self.typing = False
        tournament = read_tournament_line(text)
        if tournament is not None:
            self.run_tournament(tournament)
            return False
        request = read_lobby_line(text)
        long = [m for m in request.messages if isinstance(m, LobbyChat)]
        if long and len(long[0].text) > self.state.max_chat:
            self.state.say(too_long_chat(long[0].text, self.state.max_chat), "error")
            self.open(text)
            return True  # kept on the line, to be shortened
        self.run(request)
        return False

    def run(self, request: LobbyRequest) -> None:
        state = self.state
        if request.refused is not None:
            state.say(request.refused, "error")
            return
        if request.help:
            self.help_open, self.help_page = True, 0
            return
        if request.ask == "delete_password":
            self._ask_deletion()
            return
        if request.ask is not None:
            # always asked: KAHUNA_PASSWORD is for --login and --register, a script's; here
            # it may be another account's, or an old one
            self.asking = (request.ask, request.name)
            self.open()
            return
        for message in request.messages:
            if not self.send(message):
                state.say(_("Not connected."), "error")
                return
            if isinstance(message, Resume):
                self.send(LobbyUnsubscribe())
        if request.said is not None:  # a refusal that comes says so instead
            state.say(request.said)
        if request.panel is not None:
            state.accounts.open(request.panel)  # type: ignore[arg-type]

    def run_tournament(self, request: TournamentRequest) -> None:
        """`tournaments` (the list) or `tournament new ...` (made, then shown)."""
        state = self.state
        if request.refused is not None:
            state.say(request.refused, "error")
            return
        for message in request.messages:
            if not self.send(message):
                state.say(_("Not connected."), "error")
                return
        if request.show_list:
            state.tournaments.view = "list"
        if request.creating:
            state.tournaments.creating = True
            state.say(_("Asking the server..."))

    def _ask_deletion(self) -> None:
        """`delete-account`: said what it does, then asked twice, as a site does: the
        password, then the account's name typed out."""
        account = self.state.accounts.account
        if account is None:
            self.state.say(_("Log in to delete your account."), "error")
            return
        said = _(
            "Deleting the account {name} cannot be undone: your rating goes, your finished"
            " games stay under the name 'deleted #N', and after the server's cooling"
            " time anyone may register the name. Type your password (Esc: keep the account)."
        )
        self.state.say(said.format(name=account), "error")
        self.asking = ("delete_password", account)
        self.open()

    def _delete_confirmed(self, name: str, typed: str) -> None:
        password, self._delete_password = self._delete_password or "", None
        self.typing = False
        if typed.strip() != name:
            said = _("Your account is not deleted: what you typed is not {name}.")
            self.state.say(said.format(name=name), "error")
            return
        if not self.send(DeleteAccount(password)):
            self.state.say(_("Not connected."), "error")
        else:
            self.state.say(_("Asking the server..."))

    def _password_given(self, password: str) -> None:
        assert self.asking is not None
        what, name = self.asking
        self.asking = None
        if what == "delete_password":
            self._delete_password = password
            self.asking = ("delete_confirm", name)
            self.open()
            return
        if what == "delete_confirm":
            self._delete_confirmed(name, password)
            return
        if what == "old_password":
            self._old_password = password
            self.asking = ("new_password", name)
            self.open()
            return
        if what in ("new_password", "register", "reset"):
            # typed twice, as --register asks it: a typing error is not the new password
            self._first = (what, password)
            self.asking = ("again", name)
            self.open()
            return
        if what == "again":
            assert self._first is not None
            (what, first), self._first = self._first, None
            if password != first:
                self.asking = (what, name)
                self.state.say(_("The two passwords differ: type the new one again."), "error")
                self.open()
                return
        self.typing = False
        self._login_sent = name if what == "login" else None
        if what == "new_password":
            old, self._old_password = self._old_password or "", None
            message: ChangePassword | Register | Login | ResetPassword = ChangePassword(
                old, password
            )
        elif what == "reset":  # `name` is the mail's code
            message = ResetPassword(name, password)
        elif what == "register":
            message = Register(name, password)
        else:
            message = Login(name, password, None)
        if not self.send(message):
            self.state.say(_("Not connected."), "error")
        else:
            self.state.say(_("Asking the server..."))

    def _login_refused(self) -> None:
        """A login the server refused: a password (this line's, or --login's) is asked again;
        the login kept from before (a token) was revoked by the operator or has expired, and
        is forgotten."""
        people = self.state.accounts
        name, self._login_sent = self._login_sent, None
        if name is None and people.login_token is not None and people.login_name is not None:
            name, people.login_token = people.login_name, None
            people.keep_token(name, None)
            said = _(
                "Your saved login as {name} was revoked or has expired: you play as a guest;"
                " ':{login} {name}' logs in again."
            )
            self.state.say(said.format(name=name, login=local_words()["login"]), "error")
            return
        name = name or people.login_name
        if name is None:
            return
        # the server answers a disabled account as it does a wrong password (docs/protocol.md)
        said = _(
            "No account has the name {name} with that password, or the server's operator"
            " disabled it: type the password again (Esc: play as a guest)."
        )
        self.state.say(said.format(name=name), "error")
        self.asking = ("login", name)
        self.open()

    # ----- the panels -----------------------------------------------------------------------

    def show(self, panel: str) -> None:
        people = self.state.accounts
        if panel == "games" and people.account is None:
            # the server archives the games of accounts only, and a guest's name is never an
            # account's: asked for, the list was an empty "Games of" and "no player has that
            # name"
            words = local_words()
            said = _(
                "A guest's games are not kept: ':{register} NAME' makes an account,"
                " ':{login} NAME' logs in to yours."
            )
            self.state.say(said.format(register=words["register"], login=words["login"]))
            return
        if panel == "games":
            self.send(GetGames(None))
        elif panel == "ratings":
            self.send(GetRatings())
        people.open(panel)  # type: ignore[arg-type]

    def open_selected(self) -> None:
        """Enter on a panel's row: a player of the ratings, their games; a running game is
        resumed, a finished one replayed; a challenge received is accepted; a report's closing
        begun."""
        people = self.state.accounts
        if people.panel == "reports" and people.moderation is not None:
            # a moderator's Enter on a report: its closing begun on the line, the note to type
            if 0 <= people.cursor < len(people.moderation.reports):
                number = people.moderation.reports[people.cursor].report_id
                self.open(f"{moderation.local_words()['closereport']} {number} ")
            return
        if people.panel == "ratings":
            if 0 <= people.cursor < len(people.ratings):
                name = people.ratings[people.cursor].name
                if self.send(GetGames(name)):
                    people.open("games")
            return
        game = people.selected_game()
        if game is not None:
            if game.status == "playing":
                if self.send(Resume(game.table_id)):
                    self.send(LobbyUnsubscribe())
                    self.state.say(_("Going to table {table}...").format(table=game.table_id))
            else:
                self.open_record(game.table_id)
            return
        challenge = people.selected_challenge()
        if challenge is not None and challenge.recipient == people.account:
            self.send(AnswerChallenge(challenge.challenge_id, "accept"))
        elif challenge is not None:  # one's own: Enter did nothing, and said nothing
            said = _("Your challenge to {name} waits for their answer: x withdraws it.")
            self.state.say(said.format(name=challenge.recipient))

    def open_record(self, table_id: str, analyse: bool = False) -> None:
        """Ask for a finished game's record, to replay it (and analyse it) when it comes."""
        if self.send(GetRecord(table_id)):
            self._wanted_record, self._analyse_it = table_id, analyse
            self.state.say(_("Asking the server for the game record..."))

    def replay_over_table(self) -> None:
        """The finished game of the player's table replayed with its analysis, the player
        staying at the table: their seat, the rematch and the chat are still there when q
        closes the replay."""
        table_id = self.state.table_id
        if table_id is not None:
            self.open_record(table_id, analyse=True)

    def refuse_selected(self) -> None:
        """x on a challenge: declined when received, withdrawn when sent."""
        people = self.state.accounts
        challenge = people.selected_challenge()
        if challenge is None:
            return
        answer = "withdraw" if challenge.sender == people.account else "decline"
        self.send(AnswerChallenge(challenge.challenge_id, answer))  # type: ignore[arg-type]

    # ----- what the server says --------------------------------------------------------------

    def received(self, msg: ServerMessage) -> bool:
        """After the state took the message: a record asked for is replayed; the player is
        called when something wants them. True when the screen changed."""
        changed = False
        if isinstance(msg, Record) and msg.table_id == self._wanted_record:
            self._wanted_record = None
            try:
                steps = timeline(read_record(msg.text), msg.text)
            except RecordError as exc:
                said = _("The record cannot be read: line {line}: {reason}").format(
                    line=exc.line, reason=record_problem(exc)
                )
                self.state.say(said, "error")
            else:
                tournament = self._tournament_of(msg)
                # version 4's record names its players (the text does not): a replay of the
                # player's own table or of a games list's game; else the tournament's pairings
                players = self.state.tournaments.players_of(msg.table_id)
                if msg.game is not None:
                    players = (msg.game.white, msg.game.black)
                self.replay = ReplayViewer(steps, msg.table_id, msg.text, tournament, players)
                self.replay_text = msg.text
                if self.state.table_id == msg.table_id and self.state.screen == "game":
                    self.over_table = msg.table_id
                    self.state.screen = "lobby"  # where a replay is drawn; the table stays
                if self._analyse_it:
                    start_analysis(self.replay, self.invalidate)
            changed = True
        elif isinstance(msg, Error) and msg.refused == "get_record" and self._wanted_record:
            self._wanted_record = None
        elif isinstance(msg, Error) and msg.code == "bad_login":  # a password's: refused=None
            self._login_refused()
            changed = True
        elif isinstance(msg, Error) and msg.refused == "delete_account":
            if msg.code == "bad_password":  # not "the old password" of change_password's
                self.state.say(_("The password is wrong: your account is not deleted."), "error")
            changed = True
        elif isinstance(msg, GameRecords):
            self._download_page(msg)
            changed = True
        attention = self.state.accounts.attention
        if attention is not None:
            self.state.accounts.attention = None
            self.ring(attention)
            changed = True
        return changed

    def _tournament_of(self, record: Record) -> TableTournament | None:
        """The tournament and round of a game replayed: version 4's record says them (a game
        opened from a games list, say); else the table it is at, or the tournament shown."""
        if record.tournament is not None:
            said = record.tournament
            return TableTournament(said.tournament_id, said.name, said.round)
        state, table_id = self.state, record.table_id
        table = state.table
        if state.table_id == table_id and table is not None and table.tournament is not None:
            return table.tournament
        return state.tournaments.tournament_of(table_id)

    def close_replay(self) -> None:
        self.replay = None
        table_id, self.over_table = self.over_table, None
        if table_id is not None and table_id == self.state.table_id:
            self.state.screen = "game"  # back at the table the replay was opened from
            self.state.say("")  # what was said of the record is done with

    def table_entered(self) -> None:
        """A table's game came on the screen (a rematch accepted, a resumed game) while a
        finished game was replayed over another table: that replay is done with."""
        if self.replay is not None and self.state.screen == "game":
            self.replay, self.over_table = None, None

    def _download_page(self, msg: GameRecords) -> None:
        """`download`: the pages one after another, then one file of all the records
        (docs/records.md, "A file of many records") where records are saved."""
        if msg.page == 0:
            self._download = []
        self._download += msg.games
        if msg.page + 1 < msg.pages:
            self.send(GetGameRecords(msg.page + 1))
            return
        games, self._download = self._download, []
        if not games:
            self.state.say(_("You have no finished game to download."))
            return
        path = self.save_dir / f"kahuna-{msg.name}-games.kahuna"
        try:
            path.write_text("\n".join(g.text for g in games), encoding="utf-8")
        except OSError as exc:
            self.state.say(_("Could not save: {reason}").format(reason=exc), "error")
            return
        said = ngettext(
            "Saved {count} game record to {path}", "Saved {count} game records to {path}",
            len(games),
        )  # fmt: skip
        self.state.say(said.format(count=len(games), path=path))

    def save_replay(self) -> None:
        if self.replay is None:
            return
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.save_dir / f"kahuna-{self.replay.name}-{stamp}.kahuna"
        try:
            path.write_text(self.replay_text, encoding="utf-8")
        except OSError as exc:
            said = _("Could not save: {reason}").format(reason=exc)
            self.state.say(said, "error")
            self.replay.say(said, error=True)
            return
        said = _("Saved the game record to {path}").format(path=path)
        self.state.say(said)
        self.replay.say(said)
