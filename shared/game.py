"""The game of Kahuna as a state machine: legal actions, apply an action, get its events.

Pure and deterministic given its CardSource: no I/O, no clocks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from shared.actions import (
    Abstain,
    Action,
    Discard,
    Draw,
    EndTurn,
    Handicap,
    Place,
    Remove,
    Take,
    Undo,
)
from shared.board import CARDS_PER_ISLAND, DEAL_SIZE, FACE_UP_SIZE, NUM_ISLANDS, ROUNDS, iter_bits
from shared.control import majority_mask, place_bridge, tokens_kept
from shared.events import (
    Abstained,
    BridgePlaced,
    BridgeRemoved,
    CardDiscarded,
    CardDrawn,
    CardTaken,
    Event,
    FinalTurnsBegan,
    GameOver,
    PlayUndone,
    Reshuffled,
    RoundScored,
    TokenPlaced,
    TokenRemoved,
    TurnEnded,
)
from shared.history import Chance, ChanceFeed, ChanceRefused, Ending, LogEntry, LogError, Move
from shared.legality import IllegalAction, TurnContext, legal_actions, refusal, why_illegal
from shared.position import Position as Position  # re-exported: shared.game.Position as before
from shared.position import PositionError as PositionError
from shared.randomness import CardSource
from shared.results import Result as Result  # re-exported: shared.game.Result as before
from shared.scoring import final_outcome, final_points, interim_points, token_counts
from shared.types import GameOptions, Phase, Seat, Termination

FULL_DECK: tuple[int, ...] = tuple(i for i in range(NUM_ISLANDS) for _ in range(CARDS_PER_ISLAND))


@attrs.frozen
class TurnStart:
    """The state as the current turn began: what an undo within the turn goes back to."""

    move_count: int
    to_move: Seat
    phase: Phase
    bridges: tuple[int, int]
    tokens: tuple[int, int]
    hand: tuple[tuple[int, ...], tuple[int, ...]]
    open: tuple[tuple[int, ...], tuple[int, ...]]
    face_up: tuple[int, ...]
    pile: tuple[int, ...]
    played: tuple[int, ...]
    face_down: tuple[int, ...]
    handicap_left: int


# The compact form kept while playing (see Game._mark_turn_start): move count, log length, mover,
# phase, bridges, tokens, the mover's hand and open cards, played and face-down counts, handicap.
_TurnMark = tuple[
    int, int, Seat, Phase, int, int, int, int, tuple[int, ...], tuple[int, ...], int, int, int,
    tuple[int, ...],
]  # fmt: skip

# What an undo needs of one play (see Game._undo): the play, then the state just before it:
# bridges, tokens, the mover's hand and open cards, played and face-down counts. A play changes
# nothing else (the row, the pile and the other hand wait for the draw that ends the turn).
_PlayMark = tuple[
    Action, int, int, int, int, tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]
]


class Game:
    """One game: the whole state, hidden parts included. Only the server holds one."""

    def __init__(self, options: GameOptions, source: CardSource) -> None:
        # Use Game.new or shared.record to make a game; this only creates empty fields.
        self.options = options
        self.source = source
        self.bridges = [0, 0]
        self.tokens = [0, 0]
        # Cards in hand per island, open cards (Variant 2) included; `open` counts those alone.
        self.hand: list[list[int]] = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
        self.open: list[list[int]] = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
        # Cards each player surely still holds, as an attentive opponent tracks them: taken
        # from the face-up row, not yet possibly played or discarded (open cards aside). Public.
        self.known: list[list[int]] = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
        self.face_up: list[int] = []
        self.pile: list[int] = []  # top first
        self.played: list[int] = []  # face up on the discard pile, in order
        self.face_down: list[int] = []  # discarded face down under the pile
        self.round = 1
        self.round_points: list[tuple[int, int]] = []
        self.to_move = Seat.WHITE
        self.phase = Phase.PLAY
        self.opponent_abstained = False
        self.final_turns_left = 0
        self.handicap_left = 0
        self.result: Result | None = None
        self.first_player = Seat.WHITE
        self.start_position: Position | None = None
        # Every move and chance outcome so far: the log alone rebuilds the game (from_log).
        self.log: list[LogEntry] = []
        self.move_count = 0
        self._turn_mark: _TurnMark | None = None
        # The plays of the current turn that an undo can take back, last on top; emptied at
        # every turn start and at the end of the game.
        self._plays: list[_PlayMark] = []
        self._feed: ChanceFeed | None = None

    # ----- creation -----------------------------------------------------------------------

    @classmethod
    def new(
        cls, source: CardSource, first: Seat = Seat.WHITE, options: GameOptions | None = None
    ) -> Game:
        """Shuffle, deal three cards each and three face up; the rest is the draw pile."""
        game = cls(options or GameOptions(), source)
        game._deal(tuple(source.shuffled(FULL_DECK)), first)
        return game

    def _deal(self, deck: tuple[int, ...], first: Seat) -> None:
        self.log.append(Chance(deck))
        for seat in Seat:
            for card in deck[seat * DEAL_SIZE : (seat + 1) * DEAL_SIZE]:
                self.hand[seat][card] += 1
        self.face_up = list(deck[2 * DEAL_SIZE : 2 * DEAL_SIZE + FACE_UP_SIZE])
        self.pile = list(deck[2 * DEAL_SIZE + FACE_UP_SIZE :])
        self.first_player = first
        self.to_move = first
        if self.options.handicap_seat is not None:
            self.phase = Phase.HANDICAP
            self.handicap_left = self.options.handicap_bridges
            self.to_move = self.options.handicap_seat
        self._mark_turn_start()

    @classmethod
    def from_log(
        cls,
        options: GameOptions,
        first: Seat,
        log: Sequence[LogEntry],
        *,
        position: Position | None = None,
        events: list[list[Event]] | None = None,
        source: CardSource,
    ) -> Game:
        """The game the log describes, rebuilt by replaying it and checking every entry.

        Without a position the log starts with the deal; with one it holds only what followed
        (and `first` and `options` must be the position's). The chance outcomes come from the
        log; `source` is only asked for shuffles after its end (RecordedSource([]) where there
        are none to ask for). If `events` is given, the events of each move (and of an Ending)
        are appended to it, one list an entry. Raises LogError naming the entry on a log that
        does not replay, PositionError on a bad position.
        """
        if position is not None:
            if position.options != options:
                raise PositionError("the position's options are not the game's options")
            if position.to_move is not first:
                raise PositionError(
                    f"the position has {position.to_move.label} to move, not {first.label}"
                )
            game = cls.from_position(position, source)
            index = 0
        else:
            deal = log[0] if log else None
            if not isinstance(deal, Chance) or Counter(deal.order) != Counter(FULL_DECK):
                raise LogError(0, "deal", "a fresh game's log starts with the deal of the 24 cards")
            game = cls(options, source)
            game._deal(deal.order, first)
            index = 1
        feed = game._feed = ChanceFeed()
        try:
            while index < len(log):
                entry = log[index]
                if isinstance(entry, Chance):
                    raise LogError(index, "chance-stray", "no reshuffle happens here")
                if game.phase is Phase.OVER:
                    raise LogError(index, "over", "the game is already over")
                if isinstance(entry, Ending):
                    ended = game._declare(entry)
                    if events is not None:
                        events.append(ended)
                    index += 1
                    continue
                if entry.seat is not game.to_move:
                    raise LogError(
                        index,
                        "seat",
                        f"it is {game.to_move.name.lower()}'s turn,"
                        f" not {entry.seat.name.lower()}'s",
                    )
                reason = why_illegal(game.turn_context(), entry.action)
                if reason is not None:
                    raise LogError(index, "illegal", f"illegal action '{entry.action}': {reason}")
                following = log[index + 1] if index + 1 < len(log) else None
                feed.order = following.order if isinstance(following, Chance) else None
                try:
                    moved = game.apply_legal(entry.action)
                except ChanceRefused as exc:
                    at = index if exc.kind == "chance-missing" else index + 1
                    raise LogError(at, exc.kind, exc.reason) from None
                if events is not None:
                    events.append(moved)
                index += 1
                if isinstance(following, Chance):
                    if feed.order is not None:
                        raise LogError(index, "chance-stray", "no reshuffle happens here")
                    index += 1
        finally:
            game._feed = None
        return game

    def clone(self) -> Game:
        """An independent copy sharing the card source: for search, never for play.

        Every field is listed here (tests/shared/test_history.py checks that none is missing)."""
        other = Game.__new__(Game)
        other.options = self.options
        other.source = self.source
        other._copy_table(self)
        other.tokens = list(self.tokens)
        other.hand = [list(h) for h in self.hand]
        other.open = [list(h) for h in self.open]
        other.known = [list(k) for k in self.known]
        other.handicap_left = self.handicap_left
        other.result = self.result
        other.first_player = self.first_player
        other.start_position = self.start_position
        # Entries are frozen, so a shallow copy of the list is a full one.
        other.log = list(self.log)
        other.move_count = self.move_count
        other._turn_mark = self._turn_mark
        other._plays = list(self._plays)  # its marks are tuples: a shallow copy is a full one
        other._feed = None
        return other

    # ----- the log as the older lists ---------------------------------------------------------

    @property
    def history(self) -> list[Action]:
        """The actions so far, in order (a copy: the log is the record)."""
        return [entry.action for entry in self.log if isinstance(entry, Move)]

    @property
    def deal(self) -> list[int]:
        """The deal's card order; empty for a game from a set-up position."""
        if self.start_position is not None or not self.log:
            return []
        first = self.log[0]
        return list(first.order) if isinstance(first, Chance) else []

    @property
    def shuffles(self) -> list[list[int]]:
        """The order of each reshuffle so far."""
        skip = 0 if self.start_position is not None else 1
        return [list(e.order) for e in self.log[skip:] if isinstance(e, Chance)]

    # ----- the start of the turn ----------------------------------------------------------------

    def _mark_turn_start(self) -> None:
        # Cheap on purpose (once a turn in every playout): within a turn only the mover's hand,
        # the bridges, tokens and handicap count change, and the discard piles only grow; the
        # face-up row, the pile and the other hand wait for the draw that ends the turn.
        seat = self.to_move
        self._turn_mark = (
            self.move_count, len(self.log), seat, self.phase,
            self.bridges[0], self.bridges[1], self.tokens[0], self.tokens[1],
            tuple(self.hand[seat]), tuple(self.open[seat]),
            len(self.played), len(self.face_down), self.handicap_left, tuple(self.known[seat]),
        )  # fmt: skip
        if self._plays:
            self._plays.clear()

    @property
    def turn_start(self) -> TurnStart:
        """The state as the current turn began (for a game over, as its last turn began)."""
        mark = self._turn_mark
        assert mark is not None, "a game is dealt or set up before it is played"
        count, _, seat, phase, b0, b1, t0, t1, hand, opened, played, face_down, left, _ = mark
        hands = [tuple(self.hand[0]), tuple(self.hand[1])]
        opens = [tuple(self.open[0]), tuple(self.open[1])]
        hands[seat], opens[seat] = hand, opened
        return TurnStart(
            count, seat, phase, (b0, b1), (t0, t1), (hands[0], hands[1]), (opens[0], opens[1]),
            tuple(self.face_up), tuple(self.pile), tuple(self.played[:played]),
            tuple(self.face_down[:face_down]), left,
        )  # fmt: skip

    def restore_turn_start(self) -> None:
        """Go back to the start of the turn, its moves removed from the log (engine only: a
        player's undo is the Undo action, which is logged and keeps the log). A game that is
        over stays over."""
        if self.phase is Phase.OVER:
            raise ValueError("the game is over; its last turn cannot be undone")
        mark = self._turn_mark
        assert mark is not None, "a game is dealt or set up before it is played"
        count, length, seat, phase, b0, b1, t0, t1, hand, opened, played, face_down, left = mark[
            :13
        ]
        self.move_count = count
        del self.log[length:]
        self.to_move, self.phase = seat, phase
        self.bridges = [b0, b1]
        self.tokens = [t0, t1]
        self.hand[seat] = list(hand)
        self.open[seat] = list(opened)
        self.known[seat] = list(mark[13])
        del self.played[played:]
        del self.face_down[face_down:]
        self.handicap_left = left
        self._plays.clear()

    # ----- queries ------------------------------------------------------------------------

    def hand_counts(self, seat: Seat) -> tuple[int, ...]:
        return tuple(self.hand[seat])

    @property
    def hidden(self) -> list[list[int]]:
        """Cards in hand per island that nobody else has seen (all of them outside Variant 2)."""
        return [[h - o for h, o in zip(self.hand[s], self.open[s], strict=True)] for s in Seat]

    def hand_size(self, seat: Seat) -> int:
        return sum(self.hand[seat])

    @property
    def scores(self) -> tuple[int, int]:
        return (sum(p[0] for p in self.round_points), sum(p[1] for p in self.round_points))

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def turn_context(self) -> TurnContext:
        seat = self.to_move
        return TurnContext(
            self.options,
            self.phase,
            seat,
            (self.bridges[0], self.bridges[1]),
            (self.tokens[0], self.tokens[1]),
            # Not copied: a context is read at once and thrown away.
            self.hand[seat],
            self.face_up,
            len(self.pile),
            self.opponent_abstained,
            self.handicap_left,
            len(self._plays),
        )

    @property
    def undoable(self) -> int:
        """How many plays of this turn an undo can take back (0 once the game is over)."""
        return len(self._plays)

    def legal_actions(self) -> list[Action]:
        return legal_actions(self.turn_context())

    def why_illegal(self, action: Action) -> str | None:
        return why_illegal(self.turn_context(), action)

    # ----- applying actions ---------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply the mover's action and return what it caused; refuse an illegal one unchanged."""
        found = refusal(self.turn_context(), action)
        if found is not None:
            raise IllegalAction(found.english, refusal=found)
        return self.apply_legal(action)

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply an action taken from legal_actions() without checking it again: the fast path
        for search and playouts. Anything else must go through apply()."""
        events: list[Event] = []
        seat = self.to_move
        # The move goes in before its effects: a reshuffle it causes follows it in the log.
        self.log.append(Move(seat, action))
        self.move_count += 1
        if isinstance(action, Place | Remove | Discard):
            self._plays.append(
                (
                    action, self.bridges[0], self.bridges[1], self.tokens[0], self.tokens[1],
                    tuple(self.hand[seat]), tuple(self.open[seat]), len(self.played),
                    len(self.face_down), tuple(self.known[seat]),
                )
            )  # fmt: skip
        if isinstance(action, Place):
            self._play_card(seat, action.card)
            self.played.append(action.card)
            self._place_bridge(seat, action.line, action.card, events)
        elif isinstance(action, Remove):
            for card in action.cards:
                self._play_card(seat, card)
                self.played.append(card)
            self._remove_bridge(seat.other, action.line, action.cards, events)
            if action.rebuild:
                self._place_bridge(seat, action.line, None, events)
        elif isinstance(action, Discard):
            was_open = self._use_card(seat, action.card)
            if not was_open:  # any known card may be the one that went
                self.known[seat] = [k - 1 if k else 0 for k in self.known[seat]]
            self.face_down.append(action.card)
            events.append(CardDiscarded(seat, action.card, was_open))
        elif isinstance(action, Handicap):
            self._place_bridge(seat, action.line, None, events)
            self.handicap_left -= 1
            if not self.handicap_left:
                self.phase = Phase.PLAY
                self.to_move = self.first_player
                self._mark_turn_start()
        elif isinstance(action, Take):
            self.face_up.remove(action.card)
            replacement = None
            if self.pile:
                replacement = self.pile.pop(0)
                self.face_up.append(replacement)
            self.hand[seat][action.card] += 1
            if self.options.variant2:
                self.open[seat][action.card] += 1  # open: shown as such, not "known"
            else:
                self.known[seat][action.card] += 1
            events.append(CardTaken(seat, action.card, replacement))
            self._end_turn(seat, events, abstained=False)
        elif isinstance(action, Draw):
            card = self.pile.pop(0)
            self.hand[seat][card] += 1
            events.append(CardDrawn(seat, card))
            self._end_turn(seat, events, abstained=False)
        elif isinstance(action, Abstain):
            events.append(Abstained(seat))
            self._end_turn(seat, events, abstained=True)
        elif isinstance(action, EndTurn):
            self._end_turn(seat, events, abstained=False)
        elif isinstance(action, Undo):
            self._undo(seat, action.whole_turn, events)
        if self.phase is not Phase.OVER and self.round >= 2:
            self._check_premature_end(events)
        return events

    def _undo(self, seat: Seat, whole_turn: bool, events: list[Event]) -> None:
        """Take back the last play (or all of this turn's), last first: the state goes back to
        what it was before it; nothing hidden is drawn or shown, no chance is undone."""
        while True:
            play, b0, b1, t0, t1, hand, opened, played, face_down, known = self._plays.pop()
            # The state is the one right after this play: did its discard use an open card?
            was_open = isinstance(play, Discard) and opened[play.card] > self.open[seat][play.card]
            self.bridges = [b0, b1]
            self.tokens = [t0, t1]
            self.hand[seat] = list(hand)
            self.open[seat] = list(opened)
            self.known[seat] = list(known)
            del self.played[played:]
            del self.face_down[face_down:]
            events.append(PlayUndone(seat, play, was_open))
            if not whole_turn or not self._plays:
                return

    def _play_card(self, seat: Seat, card: int) -> None:
        """A card played face up: the hand may have held it as a known card or a hidden one."""
        if not self._use_card(seat, card) and self.known[seat][card]:
            self.known[seat][card] -= 1

    def _use_card(self, seat: Seat, card: int) -> bool:
        """Take a card of this island from the hand; open cards go first (see docs/rules.md)."""
        self.hand[seat][card] -= 1
        if self.open[seat][card]:
            self.open[seat][card] -= 1
            return True
        return False

    def _place_bridge(self, seat: Seat, line: int, card: int | None, events: list[Event]) -> None:
        opp = seat.other
        before_tokens, before_opp, before_opp_tokens = (
            self.tokens[seat],
            self.bridges[opp],
            self.tokens[opp],
        )
        self.bridges[seat], self.bridges[opp], self.tokens[seat], self.tokens[opp] = place_bridge(
            self.bridges[seat], before_opp, before_tokens, before_opp_tokens, line
        )
        events.append(BridgePlaced(seat, line, card))
        # The story in the rulebook's order: tokens won, bridges removed, tokens lost.
        for island in iter_bits(self.tokens[seat] & ~before_tokens):
            events.append(TokenPlaced(seat, island))
        for removed in iter_bits(before_opp & ~self.bridges[opp]):
            events.append(BridgeRemoved(opp, removed, None))
        for island in iter_bits(before_opp_tokens & ~self.tokens[opp]):
            events.append(TokenRemoved(opp, island))

    def _remove_bridge(
        self, owner: Seat, line: int, cards: tuple[int, int], events: list[Event]
    ) -> None:
        self.bridges[owner] &= ~(1 << line)
        events.append(BridgeRemoved(owner, line, cards))
        before = self.tokens[owner]
        self.tokens[owner] = tokens_kept(self.bridges[owner], before)
        for island in iter_bits(before & ~self.tokens[owner]):
            events.append(TokenRemoved(owner, island))

    def _end_turn(self, seat: Seat, events: list[Event], *, abstained: bool) -> None:
        self.opponent_abstained = abstained
        if self.phase is Phase.FINAL:
            self.final_turns_left -= 1
            if not self.final_turns_left:
                events.append(TurnEnded(seat, None))
                self._final_scoring(events)
                return
        elif not self.pile and not self.face_up:
            self._depleted(events)
        self.to_move = seat.other
        self._mark_turn_start()
        events.append(TurnEnded(seat, self.to_move))

    def _depleted(self, events: list[Event]) -> None:
        """The draw pile and the face-up row are empty: score the round, then go on."""
        if self.round < ROUNDS:
            counts = token_counts(self.tokens)
            points = interim_points(self.round, counts)
            self.round_points.append(points)
            events.append(RoundScored(self.round, counts, points, False))
            cards = self.played + self.face_down
            self.played, self.face_down = [], []
            feed = self._feed
            order = tuple(self.source.shuffled(cards)) if feed is None else feed.take(cards)
            self.log.append(Chance(order))
            self.face_up = list(order[:FACE_UP_SIZE])
            self.pile = list(order[FACE_UP_SIZE:])
            self.round += 1
            events.append(Reshuffled(tuple(self.face_up), len(self.pile)))
        else:
            self.phase = Phase.FINAL
            self.final_turns_left = 2
            events.append(FinalTurnsBegan(self.to_move.other))

    def _final_scoring(self, events: list[Event]) -> None:
        counts = token_counts(self.tokens)
        points = final_points(counts)
        self.round_points.append(points)
        events.append(RoundScored(ROUNDS, counts, points, True))
        winner, kind = final_outcome(self.scores, points, self.bridges)
        self._finish(winner, kind, events)

    def _check_premature_end(self, events: list[Event]) -> None:
        if self.bridges[0] and self.bridges[1]:
            return
        empty = [seat for seat in Seat if not self.bridges[seat]]
        winner = None if len(empty) == 2 else empty[0].other
        self._finish(winner, Termination.NO_BRIDGES, events)

    def _finish(self, winner: Seat | None, kind: Termination, events: list[Event]) -> None:
        self.phase = Phase.OVER
        self.result = Result(winner, kind)
        self._plays.clear()  # a play that ended the game cannot be taken back
        events.append(GameOver(winner, kind, self.scores))

    # ----- endings that are not a move ------------------------------------------------------

    def why_not_end(self, kind: Termination, seat: Seat | None) -> str | None:
        """None if the game can end this way now, else the reason in words."""
        if self.phase is Phase.OVER:
            return "the game is over"
        try:
            Ending(kind, seat)
        except ValueError as exc:
            return str(exc)
        return None

    def end(self, kind: Termination, seat: Seat | None) -> list[Event]:
        """End the game without a move: `seat` resigned, ran out of time or forfeited (the
        other seat wins), or a draw was agreed (`seat` None). Allowed at any moment while the
        game runs, whoever is to move; the scores stay as they are (no final scoring). Logged
        as an Ending. Raises IllegalAction, the game unchanged, once it is over."""
        reason = self.why_not_end(kind, seat)
        if reason is not None:
            raise IllegalAction(reason)
        return self._declare(Ending(kind, seat))

    def _declare(self, ending: Ending) -> list[Event]:
        self.log.append(ending)
        events: list[Event] = []
        self._finish(ending.winner, ending.kind, events)
        return events

    # ----- set-up positions ---------------------------------------------------------------

    @classmethod
    def from_position(cls, position: Position, source: CardSource) -> Game:
        """A game that starts from a set-up position instead of a fresh deal."""
        position.validate()
        game = cls(position.options, source)
        game.start_position = position
        game.tokens = [majority_mask(b) for b in position.bridges]
        for seat in Seat:
            for card in position.hands[seat]:
                game.hand[seat][card] += 1
            for card in position.open_cards[seat]:
                game.hand[seat][card] += 1
                game.open[seat][card] += 1
        game._copy_table(position)
        game.first_player = position.to_move
        game._mark_turn_start()
        return game

    def _copy_table(self, source: Game | Position) -> None:
        """Copy the fields a game shares with a position (same names, same meaning): the
        bridges, the cards outside the hands, the round and whose turn it is."""
        self.bridges = list(source.bridges)
        self.face_up = list(source.face_up)
        self.pile = list(source.pile)
        self.played = list(source.played)
        self.face_down = list(source.face_down)
        self.round = source.round
        self.round_points = list(source.round_points)
        self.to_move = source.to_move
        self.phase = source.phase
        self.final_turns_left = source.final_turns_left
        self.opponent_abstained = source.opponent_abstained
