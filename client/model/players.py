"""What the client knows of the players (protocol version 3): the account it is logged in to,
the leaderboard, a player's games, the challenges, the lobby's chat, the players it ignores; and
what each of those messages changes. Pure, like client/model/state.py, which hands them here.

The lobby shows one panel at a time below its header: the tables (as ever), the ratings, a
player's games, the challenges.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

import attrs

from client.language.i18n import _, ngettext, pgettext
from client.language.words import game_over_words, moderation_action_words
from client.model.moderation import until_words
from protocol.mail_messages import MailNote, MailSettings
from protocol.messages import ServerMessage, Welcome
from protocol.moderation_messages import Moderation, ModerationNote
from protocol.player_messages import (
    ChallengeInfo,
    Challenges,
    GameEntry,
    Games,
    Ignoring,
    LobbyChatEntry,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    PasswordChanged,
    PlayerNote,
    RatingEntry,
    Ratings,
    Register,
)

Panel = Literal["tables", "ratings", "games", "challenges", "reports", "modlog"]
CHAT_KEPT = 200


@attrs.define
class PlayersState:
    accounts: bool = False  # the server keeps accounts
    mail: bool = False  # version 4: the server sends e-mail
    mail_settings: MailSettings | None = None  # the account's, once asked for
    account: str | None = None  # the name logged in to
    rating: int | None = None
    games_played: int = 0
    ignoring: list[str] = attrs.Factory(list)
    # what the client logs in with once welcomed: a token kept from before, or (from the
    # command line) a password typed for --register / --login
    login_name: str | None = None
    login_token: str | None = None
    login_password: str | None = attrs.field(default=None, repr=False)
    register: bool = False
    # the --name asked for when the token kept is another account's: the login then says,
    # once, whose it is, since the name asked for is not the one played under
    name_asked: str | None = None
    # called with (name, token) when the server gives a login token to keep, (name, None) when
    # it is to be forgotten (client/files/login_tokens.py keeps them)
    keep_token: Callable[[str, str | None], None] = lambda name, token: None
    # the lobby's panels
    panel: Panel = "tables"
    cursor: int = 0
    ratings: list[RatingEntry] = attrs.Factory(list)
    games: Games | None = None
    challenges: list[ChallengeInfo] = attrs.Factory(list)
    chat: list[LobbyChatEntry] = attrs.Factory(list)
    waiting_moves: list[str] = attrs.Factory(list)  # tables where it is this player's move
    asked_games: bool = False  # the first listing of one's own games after logging in
    # set when something wants the player's attention: the bell and the window title
    attention: str | None = None
    # version 4: the moderation panel, for a moderator (client/model/moderation.py)
    moderation: Moderation | None = None

    # ----- the panels ---------------------------------------------------------------------

    def rows(self) -> int:
        if self.panel == "ratings":
            return len(self.ratings)
        if self.panel == "games":
            return 0 if self.games is None else len(self.games.games)
        if self.panel == "challenges":
            return len(self.challenges)
        if self.panel == "reports":
            return 0 if self.moderation is None else len(self.moderation.reports)
        if self.panel == "modlog":
            return 0 if self.moderation is None else len(self.moderation.log)
        return 0

    def move(self, by: int) -> None:
        self.cursor = max(0, min(self.rows() - 1, self.cursor + by))

    def open(self, panel: Panel) -> None:
        self.panel, self.cursor = panel, 0

    def selected_game(self) -> GameEntry | None:
        if self.panel != "games" or self.games is None:
            return None
        games = self.games.games
        return games[self.cursor] if 0 <= self.cursor < len(games) else None

    def selected_challenge(self) -> ChallengeInfo | None:
        if self.panel != "challenges":
            return None
        found = self.challenges
        return found[self.cursor] if 0 <= self.cursor < len(found) else None

    def _no_moderation(self) -> None:
        self.moderation = None
        if self.panel in ("reports", "modlog"):
            self.open("tables")

    def _moderation_note(self, note: ModerationNote) -> str:
        if note.note == "muted":
            until = "?" if note.until is None else until_words(note.until)
            return _("A moderator muted you until {until}: {reason}").format(
                until=until, reason=note.reason or ""
            )
        if note.note == "unmuted":
            return _("A moderator lifted your mute: you may speak again.")
        if note.note == "reported":
            return _("Your report is with the moderators. Thank you.")
        self._no_moderation()
        return _("You are no longer a moderator on this server.")

    # ----- logging in -----------------------------------------------------------------------

    def login_messages(self) -> list[Login | Register]:
        """What to send once welcomed: a registration or login the player asked for, or a
        login with the token kept from before (again after every reconnection)."""
        if not self.accounts or self.account is not None:
            return []
        if self.login_name is not None and self.login_password is not None:
            password, self.login_password = self.login_password, None
            if self.register:
                return [Register(self.login_name, password)]
            return [Login(self.login_name, password, None)]
        if self.login_name is not None and self.login_token is not None:
            return [Login(self.login_name, None, self.login_token)]
        return []

    # ----- the server's messages --------------------------------------------------------------

    def handle(self, msg: ServerMessage, my_name: str) -> str | None:
        """Take in a version-3 message; a sentence to show, if there is one."""
        if isinstance(msg, Welcome):
            self.accounts = msg.accounts
            self.mail = msg.mail
            # a new connection is a guest's until it logs in again (with the token kept)
            self.account = None
            if msg.name_note == "name_registered" and msg.name:
                return _(
                    "The name you asked for is registered: you play as {name} until you log in."
                ).format(name=msg.name)
        elif isinstance(msg, LoggedIn):
            self.account, self.rating, self.games_played = msg.name, msg.rating, msg.games
            self.ignoring = list(msg.ignoring)
            self.login_name = msg.name
            if msg.token is not None:
                self.login_token = msg.token
                self.keep_token(msg.name, msg.token)
            self.asked_games = False
            if msg.created:
                return _("Welcome, {name}: your account is made; your rating is {rating}.").format(
                    name=msg.name, rating=msg.rating
                )
            asked, self.name_asked = self.name_asked, None
            if asked is not None and asked.casefold() != msg.name.casefold():
                # logging out forgets the token (LoggedOut below): the next start is the guest's
                return _(
                    "Logged in as {name} ({rating}), a login kept on this machine, not as"
                    " {asked}: ':{logout}' forgets it, and the next start plays as {asked},"
                    " a guest."
                ).format(
                    name=msg.name,
                    rating=msg.rating,
                    asked=asked,
                    logout=pgettext("command", "logout"),
                )
            return _("Logged in as {name} ({rating}).").format(name=msg.name, rating=msg.rating)
        elif isinstance(msg, LoggedOut):
            if self.account is not None:
                self.keep_token(self.account, None)
            self.account = self.rating = None
            self.login_name = self.login_token = None
            self.challenges, self.waiting_moves = [], []
            self._no_moderation()
            if msg.reason == "password_changed":
                said = _(
                    "Your password was changed elsewhere, so this connection is logged out:"
                    " you play as {name}."
                )
            elif msg.reason == "account_deleted":
                said = _(
                    "Your account is deleted; its finished games stay under a stand-in name."
                    " You play as {name}."
                )
            elif msg.reason == "account_changed":
                said = _(
                    "The server's operator or a moderator changed your account, so this"
                    " connection is logged out: you play as {name}."
                )
            else:
                said = _("Logged out: you play as {name}.")
            return said.format(name=msg.name)
        elif isinstance(msg, Moderation):
            before, self.moderation = self.moderation, msg
            self.cursor = min(self.cursor, max(0, self.rows() - 1))
            if before is None:
                return _(
                    "You are a moderator on this server: ':reports' lists the open reports,"
                    " ':modlog' the moderation log ('help' has the commands)."
                )
            newest = msg.log[0] if msg.log else None
            if newest is not None and newest not in before.log and newest.moderator == my_name:
                # this moderator's action, done: said, as every request is answered
                return _("Done, and in the log: {line}.").format(
                    line=moderation_action_words(
                        newest.moderator, newest.action, newest.target, newest.name
                    )
                )
        elif isinstance(msg, ModerationNote):
            return self._moderation_note(msg)
        elif isinstance(msg, PasswordChanged):
            if self.account is not None:
                self.login_token = msg.token
                self.keep_token(self.account, msg.token)
            return _("Your password is changed; your other machines must log in again.")
        elif isinstance(msg, Ratings):
            self.ratings = list(msg.players)
            self.cursor = min(self.cursor, max(0, len(self.ratings) - 1))
            for entry in msg.players:
                if entry.name == self.account:
                    self.rating = entry.rating
        elif isinstance(msg, Games):
            return self._games(msg)
        elif isinstance(msg, Challenges):
            return self._challenges(msg)
        elif isinstance(msg, PlayerNote):
            return self._note(msg)
        elif isinstance(msg, LobbyChatMessage):
            if msg.history:
                self.chat = list(msg.entries)
            else:
                self.chat.extend(msg.entries)
            del self.chat[:-CHAT_KEPT]
        elif isinstance(msg, MailSettings):
            self.mail_settings = msg
            return mail_words(msg)
        elif isinstance(msg, MailNote):
            if msg.note == "reset_sent":
                return _(
                    "If that account has a confirmed e-mail address, a code is on its way to it:"
                    " reset CODE sets a new password."
                )
            return _("Your password is changed: log in with it.")
        elif isinstance(msg, Ignoring):
            self.ignoring = list(msg.names)
            if not msg.names:
                return _("You ignore nobody.")
            return _("You ignore: {names}.").format(names=", ".join(msg.names))
        return None

    def _games(self, msg: Games) -> str | None:
        self.games = msg
        self.cursor = min(self.cursor, max(0, len(msg.games) - 1))
        if msg.name != self.account:
            return None
        self.rating = msg.rating
        waiting = [g.table_id for g in msg.games if g.status == "playing" and _mine(g, msg.name)]
        self.waiting_moves = waiting
        first = not self.asked_games
        self.asked_games = True
        if first and waiting:
            self.attention = _("Your move")
            return ngettext(
                "{count} game waits for your move: g lists your games, Enter goes to it.",
                "{count} games wait for your move: g lists your games, Enter goes to one.",
                len(waiting),
            ).format(count=len(waiting))
        return None

    def _challenges(self, msg: Challenges) -> str | None:
        before = {c.challenge_id for c in self.challenges}
        self.challenges = list(msg.challenges)
        new = [
            c for c in msg.challenges if c.challenge_id not in before and c.sender != self.account
        ]
        if new:
            return ngettext(
                "{count} challenge for you: c lists it.",
                "{count} challenges for you: c lists them.",
                len(new),
            ).format(count=len(new))
        return None

    def _note(self, msg: PlayerNote) -> str | None:
        name, table = msg.name or "?", msg.table_id or ""
        if msg.note == "challenge_received":
            self.attention = _("Challenge")
            return _("{name} challenges you: c lists your challenges.").format(name=name)
        if msg.note == "challenge_accepted":
            self.attention = _("Challenge accepted")
            return _(
                "{name} accepted your challenge: table {table} (resume {table} sits you down)."
            ).format(name=name, table=table)
        if msg.note == "challenge_declined":
            return _("{name} declined your challenge.").format(name=name)
        if msg.note == "challenge_withdrawn":
            return _("{name} withdrew their challenge.").format(name=name)
        if msg.note == "your_move":
            if table not in self.waiting_moves:
                self.waiting_moves.append(table)
            self.attention = _("Your move")
            return _("Your move against {name} at table {table}.").format(name=name, table=table)
        if msg.note == "time_low":
            self.attention = _("Time is running out")
            return _("Your time at table {table} is running out.").format(table=table)
        if msg.note == "game_over":
            if table in self.waiting_moves:
                self.waiting_moves.remove(table)
            self.attention = _("Game over")
            return game_over_words(msg)
        if msg.note == "tournament_closed":
            self.attention = _("Tournament ended")
            return _(
                "A moderator ended the tournament {name}: its standings stay as they were, its"
                " games still played are abandoned, unrated."
            ).format(name=name)
        if msg.note == "tournament_director":
            self.attention = _("You direct a tournament")
            return _(
                "A moderator gave you the tournament {name} to direct: T lists the tournaments."
            ).format(name=name)
        return None


def _mine(game: GameEntry, name: str) -> bool:
    seat = game.to_move
    return (seat == "white" and game.white == name) or (seat == "black" and game.black == name)


def when(unix: float | None) -> str:
    """A date as a list shows it."""
    if unix is None:
        return ""
    return time.strftime("%Y-%m-%d", time.localtime(unix))


def left_until(deadline: float | None, now: float) -> str:
    """The time to a deadline, as '2d 5h' or '3h 10m'."""
    if deadline is None:
        return ""
    seconds = max(0, int(deadline - now))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return _("{d}d {h}h").format(d=days, h=hours)
    return _("{h}h {m}m").format(h=hours, m=rest // 60)


def mail_words(settings: MailSettings) -> str:
    """The account's mail settings in a sentence or two."""
    kinds = {
        "turn": _("your move"),
        "clock": _("your time running low"),
        "challenge": _("challenges"),
        "tournament_round": _("tournament rounds"),
    }
    if settings.address is None and settings.pending is None:
        return _("No e-mail address: email ADDRESS gives one.")
    parts = []
    if settings.address is not None:
        getting = ", ".join(kinds[k] for k in settings.notify) or _("nothing")
        parts.append(
            _("Your e-mail address: {address}; mails in {language} about: {kinds}.").format(
                address=settings.address, language=settings.language, kinds=getting
            )
        )
    if settings.pending is not None:
        parts.append(
            _("{address} waits for its confirmation: confirm CODE, the code of the mail.").format(
                address=settings.pending
            )
        )
    return " ".join(parts)
