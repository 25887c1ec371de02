"""The messages of protocol version 3 about players (accounts, ratings, the archive, challenges,
the lobby's chat) as frozen attrs classes; docs/protocol.md, Version 3, says who sends what."""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from protocol.fields import (
    VALUES_SINCE,
    FirstName,
    LevelName,
    SeatName,
    TableOptions,
    TimeControl,
    since_v4,
)

# why a connection was logged out that did not ask (version 4's logged_out reason)
LogoutReason = Literal["password_changed", "account_changed", "account_deleted"]

# ----- client to server -------------------------------------------------------------------


@attrs.frozen
class Register:
    """Version 3: make an account of this name and password, and log in to it."""

    TYPE: ClassVar[str] = "register"
    name: str
    password: str = attrs.field(repr=False)


@attrs.frozen
class Login:
    """Version 3: log in with a password, or with the login token a `logged_in` gave."""

    TYPE: ClassVar[str] = "login"
    name: str
    password: str | None = attrs.field(default=None, repr=False)
    token: str | None = attrs.field(default=None, repr=False)


@attrs.frozen
class Logout:
    """Version 3: forget the account on this connection and the login token it used."""

    TYPE: ClassVar[str] = "logout"


@attrs.frozen
class ChangePassword:
    """Version 3: a new password, given the old one; every other login token is revoked."""

    TYPE: ClassVar[str] = "change_password"
    old: str = attrs.field(repr=False)
    new: str = attrs.field(repr=False)


@attrs.frozen
class GetRatings:
    """Version 3: the server's leaderboard."""

    TYPE: ClassVar[str] = "get_ratings"


@attrs.frozen
class GetGames:
    """Version 3: a player's games (nil: the sender's own, running ones included)."""

    TYPE: ClassVar[str] = "get_games"
    name: str | None = None


@attrs.frozen
class ChallengeTerms:
    """Version 3: the table a challenge proposes; `seat` is the challenger's (nil: white)."""

    options: TableOptions = TableOptions()
    seat: SeatName | None = None
    first: FirstName = "white"
    clock: TimeControl | None = None
    hints: bool = True
    rated: bool = True


@attrs.frozen
class Challenge:
    """Version 3: challenge a registered player, online or not."""

    TYPE: ClassVar[str] = "challenge"
    name: str
    terms: ChallengeTerms = ChallengeTerms()


ChallengeAnswer = Literal["accept", "decline", "withdraw"]


@attrs.frozen
class AnswerChallenge:
    """Version 3: accept or decline a challenge received, withdraw one sent."""

    TYPE: ClassVar[str] = "answer_challenge"
    challenge_id: str
    answer: ChallengeAnswer


@attrs.frozen
class LobbyChat:
    """Version 3: say something to everyone in the lobby (needs an account)."""

    TYPE: ClassVar[str] = "lobby_chat"
    text: str


@attrs.frozen
class Ignore:
    """Version 3: stop (or, with ignore false, resume) seeing a player's chat and challenges."""

    TYPE: ClassVar[str] = "ignore"
    name: str
    ignore: bool = True


@attrs.frozen
class Resume:
    """Version 3: take back the seat the sender's account holds at a table (no token needed)."""

    TYPE: ClassVar[str] = "resume"
    table_id: str


# ----- server to client -------------------------------------------------------------------


@attrs.frozen
class LoggedIn:
    """Version 3: the connection plays as this account; keep `token` to log in again without
    the password (nil when the login used a token, which stays valid)."""

    TYPE: ClassVar[str] = "logged_in"
    name: str
    rating: int
    deviation: int
    games: int  # rated games played
    token: str | None = attrs.field(repr=False)
    ignoring: list[str]
    created: bool  # true after register


@attrs.frozen
class LoggedOut:
    TYPE: ClassVar[str] = "logged_out"
    name: str  # the guest name the connection has now
    # version 4: why, when the connection did not ask for it: "password_changed" (on another
    # connection of the account), "account_changed" (the operator disabled the account or set
    # its password), "account_deleted" (its player deleted it: protocol/account_messages.py);
    # nil after the connection's own `logout`
    reason: LogoutReason | None = since_v4(None)


@attrs.frozen
class PasswordChanged:
    TYPE: ClassVar[str] = "password_changed"
    token: str = attrs.field(repr=False)  # the new login token (the others are revoked)


@attrs.frozen
class RatingEntry:
    name: str
    rating: int
    deviation: int
    games: int  # rated games
    wins: int
    losses: int
    draws: int
    online: bool


@attrs.frozen
class Ratings:
    TYPE: ClassVar[str] = "ratings"
    players: list[RatingEntry]  # best first


GameStatusName = Literal["playing", "over"]


@attrs.frozen
class GameEntry:
    """One game of a player's list, and (version 4) of a `record`. `winner` is "white", "black"
    or nil (a draw, or running); `ending` the result's reason code; times are unix times.
    Only what anyone may know of a game: no account's key, no address, no hidden card."""

    table_id: str
    white: str
    black: str
    status: GameStatusName
    to_move: SeatName | None  # while running
    winner: SeatName | None
    ending: str | None
    rated: bool
    white_change: int | None  # rating changes of a rated game
    black_change: int | None
    started: float
    finished: float | None
    deadline: float | None  # a running correspondence game: when the mover's time runs out
    vs_computer: bool
    level: LevelName | None  # the computer's, against it
    # version 4: who had no page of their own: the computer's seat, against it, and the seats
    # of guests (no account), so that a page links the others' names to their pages
    computer: SeatName | None = since_v4(None)
    guests: list[SeatName] = since_v4(attrs.Factory(list))


@attrs.frozen
class PlayerStats:
    """A player's record: rated wins, losses, draws, and against the computer per level."""

    rated: list[int]  # [wins, losses, draws]
    computer: dict[str, list[int]]  # level -> [wins, losses, draws], unrated


@attrs.frozen
class Games:
    """Answer to get_games: the player's games, newest first (running ones first of all)."""

    TYPE: ClassVar[str] = "games"
    name: str
    rating: int | None
    games: list[GameEntry]
    stats: PlayerStats


@attrs.frozen
class ChallengeInfo:
    challenge_id: str
    sender: str
    recipient: str
    terms: ChallengeTerms
    created: float  # unix time


@attrs.frozen
class Challenges:
    """Version 3: every standing challenge to and from the player, sent after login and on
    every change."""

    TYPE: ClassVar[str] = "challenges"
    challenges: list[ChallengeInfo]


PlayerNoteNameV3 = Literal[
    "challenge_accepted", "challenge_declined", "challenge_withdrawn", "challenge_received",
    "your_move", "time_low",
]  # fmt: skip
# version 4 adds "game_over", "tournament_round", "tournament_closed" and "tournament_director":
# version 3's peers neither get nor accept them (NOTE_SINCE)
PlayerNoteName = Literal[
    PlayerNoteNameV3, "game_over", "tournament_round", "tournament_closed", "tournament_director"
]
# the notes newer than player_note itself
NOTE_SINCE: dict[str, int] = {
    "game_over": 4, "tournament_round": 4, "tournament_closed": 4, "tournament_director": 4,
}  # fmt: skip
OutcomeName = Literal["won", "lost", "drawn"]


@attrs.frozen
class PlayerNote:
    """Version 3: something for the player that is not at a table they are watching: a
    challenge answered (`table_id`: the new game's), a move awaited, a clock running low;
    version 4: a game of theirs over (`outcome` for them, `ending`: the result's kind), their
    game of a tournament's round ready (`tournament_round`: `table_id` the game's, `name` the
    opponent), a tournament they play in or direct ended by a moderator (`tournament_closed`:
    `name` the tournament's), a tournament given to them to direct (`tournament_director`:
    `name` the tournament's)."""

    TYPE: ClassVar[str] = "player_note"
    note: PlayerNoteName = attrs.field(metadata={VALUES_SINCE: NOTE_SINCE})
    table_id: str | None
    name: str | None  # the other player
    outcome: OutcomeName | None = since_v4(None)  # game_over: won, lost or drawn, for them
    ending: str | None = since_v4(None)  # game_over: how the game ended (a result's kind)


@attrs.frozen
class LobbyChatEntry:
    sender: str
    text: str
    at: float  # unix time


@attrs.frozen
class LobbyChatMessage:
    """Version 3: the lobby's chat: one new line, or (with `history`) the latest lines, sent to a
    version-3 lobby watcher when they subscribe."""

    TYPE: ClassVar[str] = "lobby_chat_message"
    entries: list[LobbyChatEntry]
    history: bool


@attrs.frozen
class Ignoring:
    TYPE: ClassVar[str] = "ignoring"
    names: list[str]


@attrs.frozen
class Watchers:
    """Version 3: who watches a table (its spectators' names there, in the order they came),
    sent to the table's members when it changes, and to one who comes to the table while
    someone watches."""

    TYPE: ClassVar[str] = "watchers"
    table_id: str
    names: list[str]
