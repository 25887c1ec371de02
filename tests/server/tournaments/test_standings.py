"""Standings worked by hand: points, Buchholz cut 1, Sonneborn-Berger, direct encounter and
wins in their order, byes and forfeits through FIDE's virtual opponent (its published examples
checked), shared places; a round-robin's order."""

from __future__ import annotations

from fractions import Fraction as F

from server.core.tournaments.model import Entrant, Format, Game, Round, Tournament
from server.core.tournaments.outcomes import Outcome
from server.core.tournaments.standings import Cell, _direct_encounter, standings, virtual_opponent


def test_fide_virtual_opponent_examples() -> None:
    # FIDE tie-break regulations (2009 to 2022), the virtual opponent's two examples
    # 1: missed round 3 of 9 with 1.5 from 2 rounds: 2.5 after round 3, 5.5 at the end
    row = [Cell(F(1), "x"), Cell(F(1, 2), "y"), Cell(F(0), None)]
    assert virtual_opponent(row, 3) == F(5, 2)
    assert virtual_opponent(row + [Cell(F(1), "z")] * 6, 3) == F(11, 2)
    # 2: won round 6 of 9 by forfeit with 3.5 from 5 rounds: 3.5 after it, 5.0 at the end
    row = [Cell(F(1), "x")] * 3 + [Cell(F(1, 2), "y")] + [Cell(F(0), "z"), Cell(F(1), None)]
    assert virtual_opponent(row, 6) == F(7, 2)
    assert virtual_opponent(row + [Cell(F(0), "w")] * 3, 6) == F(5)


def swiss_by_hand() -> Tournament:
    """Five players, two rounds: a bye each round, a forfeit in round 2."""
    entrants = tuple(
        Entrant(n, r) for n, r in zip("ABCDE", (2000, 1900, 1800, 1700, 1600), strict=True)
    )
    rounds = (
        Round(1, (Game("A", "D", Outcome.WHITE_WON), Game("B", "E", Outcome.DRAW)), bye="C"),
        Round(
            2,
            (Game("C", "A", Outcome.BLACK_WON), Game("D", "B", Outcome.BLACK_WON_BY_FORFEIT)),
            bye="E",
        ),
    )
    return Tournament(Format.SWISS, 2, entrants, rounds)


def test_a_swiss_worked_by_hand() -> None:
    # the score each brings to the others (unplayed rounds as draws):
    # A 2, B 1/2 + 1/2 = 1, C 1/2 + 0, D 0 + 1/2, E 1/2 + 1/2 = 1
    # virtual opponents: B round 2 (forfeit win from 1/2): 1/2 + 0 + 0 = 1/2;
    # C round 1 (bye from 0): 0 + 0 + 1/2 = 1/2; D round 2 (forfeit loss from 0): 1;
    # E round 2 (bye from 1/2): 1/2
    table = standings(swiss_by_hand())
    rows = {s.name: s for s in table}
    assert [s.name for s in table] == ["A", "B", "E", "C", "D"]
    assert [s.place for s in table] == [1, 2, 3, 4, 5]
    assert {n: s.points for n, s in rows.items()} == {
        "A": F(2),
        "B": F(3, 2),
        "C": F(1),
        "D": F(0),
        "E": F(3, 2),
    }
    # Buchholz cut 1: A [1/2 (D), 1/2 (C)] -> 1/2; B [1 (E), 1/2 (virtual)] -> 1;
    # C [1/2 (virtual), 2 (A)] -> 2; D [2 (A), 1 (virtual)] -> 2; E [1 (B), 1/2] -> 1
    assert {n: s.buchholz for n, s in rows.items()} == {
        "A": F(1, 2),
        "B": F(1),
        "C": F(2),
        "D": F(2),
        "E": F(1),
    }
    # Sonneborn-Berger: A 1*1/2 + 1*1/2; B 1/2*1 + 1*1/2; C 1*1/2 + 0; D 0; E 1/2*1 + 1*1/2
    assert {n: s.sonneborn_berger for n, s in rows.items()} == {
        "A": F(1),
        "B": F(1),
        "C": F(1, 2),
        "D": F(0),
        "E": F(1),
    }
    # B and E are equal down to Sonneborn-Berger; their draw leaves the direct encounter equal,
    # and B's forfeit win is a win where E's bye is none
    assert (rows["B"].direct_encounter, rows["E"].direct_encounter) == (F(1, 2), F(1, 2))
    assert (rows["B"].wins, rows["E"].wins) == (1, 0)


def test_the_direct_encounter_counts_only_where_every_two_of_the_tied_met() -> None:
    entrants = tuple(Entrant(n, 1500) for n in "ABCD")
    rounds = (
        Round(1, (Game("A", "B", Outcome.BLACK_WON), Game("C", "D", Outcome.WHITE_WON))),
        Round(2, (Game("A", "C", Outcome.WHITE_WON), Game("D", "B", Outcome.WHITE_WON))),
    )
    t = Tournament(Format.SWISS, 2, entrants, rounds)
    rows = {s.name: s for s in standings(t)}
    # all on 1 point; A: opponents B (1), C (1) -> cut 1 -> 1; B: A 1, D 1 -> 1; the same for all
    assert {s.points for s in rows.values()} == {F(1)}
    assert {s.buchholz for s in rows.values()} == {F(1)}
    assert {s.sonneborn_berger for s in rows.values()} == {F(1)}
    # not every two of the four met: the direct encounter decides nothing; wins are 1 each:
    # one shared place, listed by seed (the names, ratings being equal)
    assert [(s.place, s.name) for s in standings(t)] == [(1, "A"), (1, "B"), (1, "C"), (1, "D")]
    # two tied who met: the winner of their game goes first
    two = Tournament(
        Format.SWISS,
        1,
        (Entrant("A", 1500), Entrant("B", 1400)),
        (Round(1, (Game("A", "B", Outcome.DRAW),)),),
    )
    assert [s.place for s in standings(two)] == [1, 1]
    assert [s.direct_encounter for s in standings(two)] == [F(1, 2), F(1, 2)]
    # where they met, the points between them: A beat C; B did not meet them
    assert _direct_encounter(t, ["A", "C"]) == {"A": F(1), "C": F(0)}
    assert _direct_encounter(t, ["A", "B", "C"]) == {"A": F(0), "B": F(0), "C": F(0)}


def test_a_round_robin_orders_by_sonneborn_berger_then_direct_encounter_then_wins() -> None:
    t = Tournament(Format.ROUND_ROBIN)
    for name in "ABCD":
        t = t.join(name, 1500)
    # A beats B, B beats C, C beats A; everyone draws with D: all on 1.5
    beats = {("A", "B"), ("B", "C"), ("C", "A")}
    while len(t.rounds) < t.total_rounds:
        t = t.pair_next_round()
        for g in t.rounds[-1].games:
            if (g.white, g.black) in beats:
                outcome = Outcome.WHITE_WON
            elif (g.black, g.white) in beats:
                outcome = Outcome.BLACK_WON
            else:
                outcome = Outcome.DRAW
            t = t.record(len(t.rounds), g.white, outcome)
    table = standings(t)
    assert {s.points for s in table} == {F(3, 2)}
    # SB: A 1 * 1.5 (B) + 1/2 * 1.5 (D) = 2.25; the same for B and C; D 3 * 1/2 * 1.5 = 2.25
    assert {s.sonneborn_berger for s in table} == {F(9, 4)}
    assert {s.buchholz for s in table} == {F(0)}  # not used in a round-robin
    # all met: the direct encounter is the points again, equal; D has no win: last
    assert [(s.place, s.name) for s in table] == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]


def test_sonneborn_berger_puts_the_better_wins_first_in_a_round_robin() -> None:
    t = Tournament(Format.ROUND_ROBIN)
    for name in "ABC":
        t = t.join(name, 1500)
    results = {frozenset("AB"): "A", frozenset("BC"): "B", frozenset("AC"): None}
    while len(t.rounds) < t.total_rounds:
        t = t.pair_next_round()
        for g in t.rounds[-1].games:
            winner = results[frozenset((g.white, g.black))]
            outcome = (
                Outcome.DRAW
                if winner is None
                else Outcome.WHITE_WON
                if winner == g.white
                else Outcome.BLACK_WON
            )
            t = t.record(len(t.rounds), g.white, outcome)
    table = standings(t)
    # A 1.5 (SB 1*1 + 1/2*1/2 = 5/4), B 1 (SB 1*1/2 = 1/2), C 1/2 (SB 1/2*3/2 = 3/4)
    assert [(s.name, s.points, s.sonneborn_berger) for s in table] == [
        ("A", F(3, 2), F(5, 4)),
        ("B", F(1), F(1, 2)),
        ("C", F(1, 2), F(3, 4)),
    ]


def test_a_game_on_counts_nothing_yet_and_a_withdrawn_player_is_marked() -> None:
    t = swiss_by_hand()
    t = Tournament(Format.SWISS, 3, t.entrants, t.rounds)
    t = t.withdraw("D")
    t = t.pair_next_round()
    before = {s.name: s.points for s in standings(swiss_by_hand())}
    assert {s.name: s.points for s in standings(t)} == before
    assert [s.withdrawn for s in standings(t) if s.name == "D"] == [True]
