"""The game of Kahuna as a state machine: legal actions, apply an action, get its events.

Pure and deterministic given its CardSource: no I/O, no clocks.
"""

from __future__ import annotations

import attrs

from shared.actions import Abstain, Action, Discard, Draw, EndTurn, Handicap, Place, Remove, Take
from shared.board import (
    CARDS_PER_ISLAND,
    DEAL_SIZE,
    FACE_UP_SIZE,
    ISLAND_MASK,
    NEEDED,
    NUM_ISLANDS,
    iter_bits,
)
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
    Reshuffled,
    RoundScored,
    TokenPlaced,
    TokenRemoved,
    TurnEnded,
)
from shared.legality import IllegalAction, TurnContext, legal_actions, why_illegal
from shared.randomness import CardSource
from shared.types import GameOptions, Phase, Seat

FULL_DECK: tuple[int, ...] = tuple(i for i in range(NUM_ISLANDS) for _ in range(CARDS_PER_ISLAND))
ROUNDS = 3


@attrs.frozen
class Result:
    winner: Seat | None
    reason: str

    def to_dict(self) -> dict[str, str | None]:
        winner = None if self.winner is None else self.winner.name.lower()
        return {"winner": winner, "reason": self.reason}


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
        self.deal: list[int] = []
        self.shuffles: list[list[int]] = []
        self.history: list[Action] = []
        # For records: the history index of each action that caused a reshuffle.
        self.shuffle_points: list[int] = []
        self.start_position: Position | None = None

    # ----- creation -----------------------------------------------------------------------

    @classmethod
    def new(
        cls, source: CardSource, first: Seat = Seat.WHITE, options: GameOptions | None = None
    ) -> Game:
        """Shuffle, deal three cards each and three face up; the rest is the draw pile."""
        game = cls(options or GameOptions(), source)
        deck = source.shuffled(FULL_DECK)
        game.deal = list(deck)
        for seat in Seat:
            for card in deck[seat * DEAL_SIZE : (seat + 1) * DEAL_SIZE]:
                game.hand[seat][card] += 1
        game.face_up = deck[2 * DEAL_SIZE : 2 * DEAL_SIZE + FACE_UP_SIZE]
        game.pile = deck[2 * DEAL_SIZE + FACE_UP_SIZE :]
        game.first_player = first
        game.to_move = first
        if game.options.handicap_seat is not None:
            game.phase = Phase.HANDICAP
            game.handicap_left = game.options.handicap_bridges
            game.to_move = game.options.handicap_seat
        return game

    def clone(self) -> Game:
        """An independent copy sharing the card source: for search, never for play."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.bridges = list(self.bridges)
        other.tokens = list(self.tokens)
        other.hand = [list(h) for h in self.hand]
        other.open = [list(h) for h in self.open]
        other.face_up = list(self.face_up)
        other.pile = list(self.pile)
        other.played = list(self.played)
        other.face_down = list(self.face_down)
        other.round_points = list(self.round_points)
        other.shuffles = list(self.shuffles)
        other.shuffle_points = list(self.shuffle_points)
        other.history = list(self.history)
        return other

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
        )

    def legal_actions(self) -> list[Action]:
        return legal_actions(self.turn_context())

    def why_illegal(self, action: Action) -> str | None:
        return why_illegal(self.turn_context(), action)

    # ----- applying actions ---------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply the mover's action and return what it caused; refuse an illegal one unchanged."""
        reason = why_illegal(self.turn_context(), action)
        if reason is not None:
            raise IllegalAction(reason)
        return self.apply_legal(action)

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply an action taken from legal_actions() without checking it again: the fast path
        for search and playouts. Anything else must go through apply()."""
        events: list[Event] = []
        seat = self.to_move
        if isinstance(action, Place):
            self._use_card(seat, action.card)
            self.played.append(action.card)
            self._place_bridge(seat, action.line, action.card, events)
        elif isinstance(action, Remove):
            for card in action.cards:
                self._use_card(seat, card)
                self.played.append(card)
            self._remove_bridge(seat.other, action.line, action.cards, events)
            if action.rebuild:
                self._place_bridge(seat, action.line, None, events)
        elif isinstance(action, Discard):
            was_open = self._use_card(seat, action.card)
            self.face_down.append(action.card)
            events.append(CardDiscarded(seat, action.card, was_open))
        elif isinstance(action, Handicap):
            self._place_bridge(seat, action.line, None, events)
            self.handicap_left -= 1
            if not self.handicap_left:
                self.phase = Phase.PLAY
                self.to_move = self.first_player
        elif isinstance(action, Take):
            self.face_up.remove(action.card)
            replacement = None
            if self.pile:
                replacement = self.pile.pop(0)
                self.face_up.append(replacement)
            self.hand[seat][action.card] += 1
            if self.options.variant2:
                self.open[seat][action.card] += 1
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
        self.history.append(action)
        if self.phase is not Phase.OVER and self.round >= 2:
            self._check_premature_end(events)
        return events

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
        events.append(TurnEnded(seat, self.to_move))

    def _token_counts(self) -> tuple[int, int]:
        return (self.tokens[0].bit_count(), self.tokens[1].bit_count())

    def _depleted(self, events: list[Event]) -> None:
        """The draw pile and the face-up row are empty: score the round, then go on."""
        if self.round < ROUNDS:
            white, black = self._token_counts()
            value = self.round  # 1 point in the first interim scoring, 2 in the second
            points = (value, 0) if white > black else (0, value) if black > white else (0, 0)
            self.round_points.append(points)
            events.append(RoundScored(self.round, (white, black), points, False))
            cards = self.played + self.face_down
            self.played, self.face_down = [], []
            order = self.source.shuffled(cards)
            self.shuffles.append(list(order))
            self.shuffle_points.append(len(self.history))
            self.face_up = order[:FACE_UP_SIZE]
            self.pile = order[FACE_UP_SIZE:]
            self.round += 1
            events.append(Reshuffled(tuple(self.face_up), len(self.pile)))
        else:
            self.phase = Phase.FINAL
            self.final_turns_left = 2
            events.append(FinalTurnsBegan(self.to_move.other))

    def _final_scoring(self, events: list[Event]) -> None:
        white, black = self._token_counts()
        diff = white - black
        points = (diff, 0) if diff > 0 else (0, -diff)
        self.round_points.append(points)
        events.append(RoundScored(ROUNDS, (white, black), points, True))
        total_w, total_b = self.scores
        if total_w != total_b:
            winner: Seat | None = Seat.WHITE if total_w > total_b else Seat.BLACK
            reason = "more points"
        elif points[0] != points[1]:
            winner = Seat.WHITE if points[0] > points[1] else Seat.BLACK
            reason = "tied on points, more in the final scoring"
        else:
            on_board = self.bridges[0].bit_count(), self.bridges[1].bit_count()
            if on_board[0] != on_board[1]:
                winner = Seat.WHITE if on_board[0] > on_board[1] else Seat.BLACK
                reason = "tied on points, more bridges on the board"
            else:
                winner, reason = None, "tied on points and bridges: no winner"
        self._finish(winner, reason, events)

    def _check_premature_end(self, events: list[Event]) -> None:
        if self.bridges[0] and self.bridges[1]:
            return
        empty = [seat for seat in Seat if not self.bridges[seat]]
        if len(empty) == 2:
            self._finish(None, "neither player has a bridge on the board", events)
        else:
            loser = empty[0]
            self._finish(loser.other, f"{loser.label} has no bridge on the board", events)

    def _finish(self, winner: Seat | None, reason: str, events: list[Event]) -> None:
        self.phase = Phase.OVER
        self.result = Result(winner, reason)
        events.append(GameOver(winner, reason, self.scores))

    # ----- set-up positions ---------------------------------------------------------------

    @classmethod
    def from_position(cls, position: Position, source: CardSource) -> Game:
        """A game that starts from a set-up position instead of a fresh deal."""
        position.validate()
        game = cls(position.options, source)
        game.start_position = position
        game.bridges = list(position.bridges)
        game.tokens = [majority_mask(b) for b in position.bridges]
        for seat in Seat:
            for card in position.hands[seat]:
                game.hand[seat][card] += 1
            for card in position.open_cards[seat]:
                game.hand[seat][card] += 1
                game.open[seat][card] += 1
        game.face_up = list(position.face_up)
        game.pile = list(position.pile)
        game.played = list(position.played)
        game.face_down = list(position.face_down)
        game.round = position.round
        game.round_points = list(position.round_points)
        game.to_move = position.to_move
        game.first_player = position.to_move
        game.phase = position.phase
        game.final_turns_left = position.final_turns_left
        game.opponent_abstained = position.opponent_abstained
        return game


class PositionError(ValueError):
    """A set-up position that cannot arise in a game."""


@attrs.frozen
class Position:
    """A set-up position, as a chess FEN: everything needed to continue from it.

    Tokens are not given: they follow from the bridges.
    """

    options: GameOptions = attrs.Factory(GameOptions)
    bridges: tuple[int, int] = (0, 0)
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    open_cards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    face_up: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    played: tuple[int, ...] = ()
    face_down: tuple[int, ...] = ()
    round: int = 1
    round_points: tuple[tuple[int, int], ...] = ()
    to_move: Seat = Seat.WHITE
    phase: Phase = Phase.PLAY
    final_turns_left: int = 0
    opponent_abstained: bool = False

    def validate(self) -> None:
        from shared.board import BRIDGES_PER_PLAYER, HAND_LIMIT, ISLANDS

        if self.bridges[0] & self.bridges[1]:
            raise PositionError("a line cannot carry a white and a black bridge")
        for seat in Seat:
            if self.bridges[seat].bit_count() > BRIDGES_PER_PLAYER:
                raise PositionError(f"{seat.label} has more than {BRIDGES_PER_PLAYER} bridges")
            size = len(self.hands[seat]) + len(self.open_cards[seat])
            if size > HAND_LIMIT:
                raise PositionError(f"{seat.label} holds {size} cards; at most {HAND_LIMIT}")
        if self.open_cards != ((), ()) and not self.options.variant2:
            raise PositionError("open cards exist only in Variant 2")
        everywhere = (
            *self.hands[0], *self.hands[1], *self.open_cards[0], *self.open_cards[1],
            *self.face_up, *self.pile, *self.played, *self.face_down,
        )  # fmt: skip
        for island in range(NUM_ISLANDS):
            count = everywhere.count(island)
            if count != CARDS_PER_ISLAND:
                raise PositionError(
                    f"{ISLANDS[island]} appears on {count} cards; every island has exactly"
                    f" {CARDS_PER_ISLAND}"
                )
        if len(self.face_up) > FACE_UP_SIZE:
            raise PositionError(f"at most {FACE_UP_SIZE} cards lie face up")
        if self.pile and len(self.face_up) < FACE_UP_SIZE:
            raise PositionError("the face-up row is refilled while the draw pile has cards")
        if self.phase is Phase.PLAY and not self.pile and not self.face_up:
            raise PositionError("the draw pile and the face-up row are both empty")
        if not 1 <= self.round <= ROUNDS:
            raise PositionError("the round is 1, 2 or 3")
        if len(self.round_points) != self.round - 1:
            raise PositionError(f"round {self.round} follows {self.round - 1} interim scoring(s)")
        for number, points in enumerate(self.round_points, start=1):
            if points not in ((0, 0), (number, 0), (0, number)):
                raise PositionError(f"scoring {number} gives {number} point(s) to one player")
        if self.phase in (Phase.HANDICAP, Phase.OVER):
            raise PositionError("a position starts in the play phase or a final turn")
        if (self.phase is Phase.FINAL) != (self.final_turns_left in (1, 2)):
            raise PositionError("final turns (1 or 2 left) belong to the final phase")
        if self.phase is Phase.FINAL and (self.round != ROUNDS or self.pile or self.face_up):
            raise PositionError("the final turns come after the third depletion")
        for seat in Seat:
            theirs = majority_mask(self.bridges[seat])
            for island in iter_bits(theirs):
                bad = self.bridges[seat.other] & ISLAND_MASK[island]
                # Bridges placed after control was won are fine; only a double majority is not.
                if (bad & ISLAND_MASK[island]).bit_count() >= NEEDED[island]:
                    raise PositionError(f"both players hold a majority on {ISLANDS[island]}")
