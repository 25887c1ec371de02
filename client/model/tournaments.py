"""What the client knows of the server's tournaments (protocol version 4): the list, the one it
watches (its players, standings and rounds), the round's note; and the lobby's tournament
commands read into messages. Pure, like client/model/state.py, which hands it the messages.

    tournaments                                  the list (T in the lobby)
    tournament new NAME swiss ROUNDS [CLOCK] [unrated] [at HH:MM]
    tournament new NAME roundrobin|double [CLOCK] [unrated] [at HH:MM]

CLOCK is 5+3 (minutes and seconds added a turn) or 3d (days a move); none: no clock. A NAME of
several words is quoted: "Club night". `at 20:30` starts it by itself at the next 20:30 of the
machine's time (today, or tomorrow if that is past); without it, its director starts it.

On the screen of one tournament its director also has keys (client/screens/tournament_keys.py):
remove the selected player, draw the round's games still played, end it (each asked y/n first),
pause and resume it.
"""

from __future__ import annotations

import shlex
import time
from datetime import datetime, timedelta
from typing import Literal

import attrs

from client.language.command_words import in_words
from client.language.i18n import N_, _, pgettext
from client.model.table import TableTournament
from protocol.fields import TimeControl
from protocol.messages import ClientMessage, Error
from protocol.player_messages import PlayerNote
from protocol.tournament_messages import (
    CreateTournament,
    DirectorAction,
    FormatName,
    GetTournaments,
    Pairing,
    TournamentRound,
    Tournaments,
    TournamentState,
    TournamentSummary,
    TournamentTerms,
    WatchTournament,
)

View = Literal["list", "one"]


@attrs.define
class TournamentsState:
    view: View | None = None  # the tournaments' screen over the lobby, when open
    listing: list[TournamentSummary] = attrs.Factory(list)
    cursor: int = 0  # in the list
    watching: str | None = None  # the tournament shown (watch_tournament sent)
    current: TournamentState | None = None  # its state, once it came
    game_cursor: int = 0  # on the shown round's games
    creating: bool = False  # a create_tournament sent: its answer is shown
    asked: str | None = None  # join, withdraw or start sent: said when the state shows it
    # a round's note that came while the player was at a table (its id, what it says): said
    # again when that game is over, where the table's end would hide it
    waiting: tuple[str, str] | None = None
    player_cursor: int = 0  # on the shown tournament's players not withdrawn (the director's)
    # the director's action, or a withdrawal under way, asked y/n before it is sent: (action,
    # the player removed or None)
    confirm: tuple[DirectorAction | Literal["withdraw"], str | None] | None = None
    asked_name: str | None = None  # the player whose removal was asked
    # this player's game in a round just paired while the tournament is shown (said there)
    new_game: PlayerNote | None = None

    def handle(self, msg: Tournaments | TournamentState, me: str | None) -> str | None:
        """Take the message in; what to say (a tournament made by this player), if anything."""
        if isinstance(msg, Tournaments):
            if msg.name is None:
                before = self.selected()
                self.listing = list(msg.tournaments)
                ids = [t.tournament_id for t in self.listing]
                if before is not None and before.tournament_id in ids:
                    self.cursor = ids.index(before.tournament_id)
                self.cursor = min(self.cursor, max(len(self.listing) - 1, 0))
            return None
        made = self.creating and msg.summary.director == me and not msg.players
        if made:
            self.creating = False
            self.watching, self.view, self.game_cursor = msg.summary.tournament_id, "one", 0
        if msg.summary.tournament_id == self.watching:
            was = self.current
            new_round = was is None or len(was.rounds) != len(msg.rounds)
            self.current = msg
            if was is not None and was.summary.status != "finished" == msg.summary.status:
                # over while followed (its last game, or its director): who won, and where
                return self.ended_words(msg.summary.tournament_id)
            self.game_cursor = min(self.game_cursor, max(len(self.shown_games()) - 1, 0))
            if new_round:  # a round paired, or the tournament opened: Enter goes to one's game
                self.place_on_mine(me)
                mine = [
                    g for g in self.shown_games()
                    if me in (g.white, g.black) and g.result is None and g.table_id
                ]  # fmt: skip
                if mine and was is not None:  # a round paired while shown: said on it
                    game = mine[0]
                    opponent = game.black if game.white == me else game.white
                    self.new_game = PlayerNote("tournament_round", game.table_id, opponent)
                bye = msg.rounds[-1].bye if msg.rounds else None
                if bye is not None and bye == me and msg.summary.status == "started":
                    return _("Round {n}: you have the bye, a point without a game.").format(
                        n=len(msg.rounds)
                    )
        for i, entry in enumerate(self.listing):  # the list's line follows too
            if entry.tournament_id == msg.summary.tournament_id:
                self.listing[i] = msg.summary
        if made:
            return _("Tournament {name} made: j joins it, s starts it.").format(
                name=msg.summary.name
            )
        if msg.summary.tournament_id == self.watching:
            return self._answered(msg, me)
        return None

    def _answered(self, msg: TournamentState, me: str | None) -> str | None:
        """What a join, a withdrawal or the start asked for, once the state shows it done."""
        mine = [p for p in msg.players if p.name == me]
        asked = self.asked
        if asked == "join" and mine and not mine[0].withdrawn:
            said = _("You are in the tournament.")
        elif asked == "withdraw" and (not mine or mine[0].withdrawn):
            playing = msg.rounds and any(
                g.result is None and me in (g.white, g.black) for g in msg.rounds[-1].games
            )
            said = (
                _(
                    "You have left the tournament; your game of this round goes on: play it out"
                    " or resign it."
                )
                if playing
                else _("You have left the tournament.")
            )
        elif asked == "start" and msg.summary.status != "open":
            said = _("The tournament has begun.")
        elif asked == "remove" and any(
            p.name == self.asked_name and p.withdrawn for p in msg.players
        ):
            said = _("{name} is out of the tournament.").format(name=self.asked_name)
        elif asked == "end" and msg.summary.status == "finished":
            said = _("The tournament is over: its final standings are shown.")
        elif asked == "draw_round":
            said = _("The round's games still played are drawn.")
        elif asked == "pause" and msg.summary.paused:
            said = _("The tournament is paused: no round is paired until p resumes it.")
        elif asked == "resume" and not msg.summary.paused:
            said = _("The tournament goes on.")
        else:
            return None
        self.asked = None
        return said

    def ended_words(self, tournament_id: str) -> str | None:
        """The tournament followed is over: who won, and where the final standings are (one a
        moderator ended: that it was)."""
        shown = self.current
        if shown is None or shown.summary.tournament_id != tournament_id:
            return None
        if shown.summary.status != "finished":
            return None
        if shown.summary.closed:  # by a moderator: no winner
            return _(
                "A moderator ended the tournament {name}: its standings stay as they were, its"
                " games still played are abandoned, unrated."
            ).format(name=shown.summary.name)
        firsts = ", ".join(s.name for s in shown.standings if s.place == 1) or "-"
        return _(
            "{name} is over, won by {names}: T in the lobby shows the final standings."
        ).format(name=shown.summary.name, names=firsts)

    def again(self) -> list[ClientMessage]:
        """What a new connection asks for again (the last one's watch is gone with it): the
        tournament shown, or the list shown."""
        if self.watching is not None:
            return [WatchTournament(self.watching)]
        if self.view == "list":
            return [GetTournaments()]
        return []

    def refused(self, error: Error) -> None:
        """A tournament message refused: what was waited for will not come."""
        if error.refused == "create_tournament":
            self.creating = False
        if error.refused in (
            "join_tournament",
            "withdraw_tournament",
            "start_tournament",
            "direct_tournament",
        ):
            self.asked = None

    def selected(self) -> TournamentSummary | None:
        if 0 <= self.cursor < len(self.listing):
            return self.listing[self.cursor]
        return None

    def move(self, step: int) -> None:
        if self.view == "list":
            self.cursor = max(0, min(self.cursor + step, len(self.listing) - 1))
        elif self.view == "one":
            last = max(len(self.shown_games()) - 1, 0)
            self.game_cursor = max(0, min(self.game_cursor + step, last))

    def active_players(self) -> list[str]:
        """The shown tournament's players not withdrawn: those its director may remove."""
        if self.current is None:
            return []
        return [p.name for p in self.current.players if not p.withdrawn]

    def selected_player(self) -> str | None:
        names = self.active_players()
        if not names:
            return None
        return names[min(self.player_cursor, len(names) - 1)]

    def move_player(self, step: int) -> None:
        last = max(len(self.active_players()) - 1, 0)
        self.player_cursor = max(0, min(self.player_cursor + step, last))

    def is_director(self, me: str | None) -> bool:
        return bool(
            me is not None
            and self.current is not None
            and self.current.summary.director.lower() == me.lower()
        )

    def shown_round(self) -> TournamentRound | None:
        """The round under way, or the last one played."""
        if self.current is None or not self.current.rounds:
            return None
        return self.current.rounds[-1]

    def shown_games(self) -> list[Pairing]:
        shown = self.shown_round()
        return [] if shown is None else list(shown.games)

    def selected_game(self) -> Pairing | None:
        games = self.shown_games()
        if 0 <= self.game_cursor < len(games):
            return games[self.game_cursor]
        return None

    def tournament_of(self, table_id: str) -> TableTournament | None:
        """The shown tournament and the round whose game the table played, if it is one of
        its games: what a replay of it says beside the game's own rounds."""
        shown = self.current
        if shown is None:
            return None
        for played in shown.rounds:
            if any(game.table_id == table_id for game in played.games):
                summary = shown.summary
                return TableTournament(summary.tournament_id, summary.name, played.number)
        return None

    def players_of(self, table_id: str) -> tuple[str, str] | None:
        """White's and Black's names of a game of the tournament shown."""
        for played in [] if self.current is None else self.current.rounds:
            for game in played.games:
                if game.table_id == table_id:
                    return game.white, game.black
        return None

    def place_on_mine(self, me: str | None) -> None:
        """The cursor on this player's game of the round, if they have one."""
        for i, game in enumerate(self.shown_games()):
            if me in (game.white, game.black):
                self.game_cursor = i
                return


def round_note_words(note: PlayerNote, at_table: bool = False, on_screen: bool = False) -> str:
    """A tournament's round is paired: the player's game, and how to get there (from the
    lobby, from the table the player is at, or from the tournament's screen, where the cursor
    is on it)."""
    if on_screen:
        return _(
            "Your tournament game against {name} is ready at table {table}: Enter goes there."
        ).format(name=note.name or "?", table=note.table_id or "?")
    if at_table:
        return _(
            "Your tournament game against {name} is ready at table {table}: '{lobby}', then"
            " Enter on it."
        ).format(name=note.name or "?", table=note.table_id or "?", lobby=in_words("lobby"))
    return _(
        "Your tournament game against {name} is ready at table {table}: ':{resume} {table}'"
        " or Enter on it in the lobby (T: the tournaments)."
    ).format(
        name=note.name or "?", table=note.table_id or "?", resume=pgettext("command", "resume")
    )


# ----- the lobby's tournament commands ----------------------------------------------------


@attrs.frozen
class TournamentRequest:
    messages: tuple[ClientMessage, ...] = ()
    refused: str | None = None
    show_list: bool = False  # the tournaments' screen opens on the list
    creating: bool = False  # a tournament is made: its screen opens when it comes


FORMATS: dict[str, FormatName] = {
    "swiss": "swiss",
    "roundrobin": "round_robin",
    "round_robin": "round_robin",
    "rr": "round_robin",
    "double": "double_round_robin",
    "double_round_robin": "double_round_robin",
}
USAGE = N_(
    "tournament new NAME swiss ROUNDS [5+3|3d] [unrated] [at HH:MM] (or roundrobin, double:"
    " no ROUNDS)"
)


def tournament_words() -> tuple[set[str], set[str]]:
    """The words of the list's command and of the tournament command, English and local."""
    many = {"tournaments", pgettext("command", "tournaments").lower()}
    one = {"tournament", pgettext("command", "tournament").lower()}
    return many, one


def read_tournament_line(text: str, now: float | None = None) -> TournamentRequest | None:
    """A line of the lobby's command line that is a tournament command, read; None if it is
    another command. `now`: the unix time an `at HH:MM` counts from (the machine's)."""
    word, _sep, rest = text.strip().partition(" ")
    many, one = tournament_words()
    if word.lower() in many:
        return TournamentRequest((GetTournaments(),), show_list=True)
    if word.lower() not in one:
        return None
    try:
        args = shlex.split(rest)
    except ValueError:
        return TournamentRequest(refused=_(USAGE))
    if not args:
        return TournamentRequest((GetTournaments(),), show_list=True)
    if args[0].lower() not in ("new", pgettext("command", "new").lower()) or len(args) < 3:
        return TournamentRequest(refused=_(USAGE))
    name, kind, options = args[1], FORMATS.get(args[2].lower()), args[3:]
    if kind is None:
        return TournamentRequest(refused=_(USAGE))
    rounds = 0
    if kind == "swiss":
        if not options or not options[0].isdigit():
            return TournamentRequest(
                refused=_("a Swiss needs its number of rounds: {usage}").format(usage=_(USAGE))
            )
        rounds, options = int(options[0]), options[1:]
    clock: TimeControl | None = None
    rated = True
    start: float | None = None
    at_words = ("at",)  # the same word in every language, as the clocks
    if len(options) >= 2 and options[-2].lower() in at_words:
        start = read_start(options[-1], time.time() if now is None else now)
        if start is None:
            return TournamentRequest(
                refused=_("{time}: not a time of day (HH:MM, as 20:30)").format(time=options[-1])
            )
        options = options[:-2]
    for option in options:
        read = read_clock(option)
        if option.lower() in ("unrated", pgettext("command", "unrated").lower()):
            rated = False
        elif option.lower() == "none":
            clock = None
        elif read is not None:
            clock = read
        else:
            return TournamentRequest(
                refused=_("{option}: not a tournament option (5+3, 3d, unrated)").format(
                    option=option
                )
            )
    terms = TournamentTerms(
        name=name, format=kind, rounds=rounds, clock=clock, rated=rated, start=start
    )
    return TournamentRequest((CreateTournament(terms),), creating=True)


def read_clock(text: str) -> TimeControl | None:
    """'5+3': 5 minutes and 3 s a turn; '3d': 3 days a move; None for anything else."""
    lowered = text.lower()
    if lowered.endswith("d") and lowered[:-1].isdigit() and int(lowered[:-1]) > 0:
        return TimeControl(days=int(lowered[:-1]))
    minutes, plus, increment = lowered.partition("+")
    if plus and minutes.isdigit() and increment.isdigit() and int(minutes) > 0:
        return TimeControl(initial=int(minutes) * 60, increment=int(increment))
    return None


def read_start(text: str, now: float) -> float | None:
    """'20:30': the unix time of the next 20:30 of the machine's local time after `now` (today,
    or tomorrow when today's is past); None for anything else."""
    hours, colon, minutes = text.partition(":")
    if not (colon and hours.isdigit() and minutes.isdigit() and len(minutes) == 2):
        return None
    if int(hours) > 23 or int(minutes) > 59:
        return None
    today = datetime.fromtimestamp(now)
    when = today.replace(hour=int(hours), minute=int(minutes), second=0, microsecond=0)
    if when.timestamp() <= now:
        when += timedelta(days=1)
    return when.timestamp()
