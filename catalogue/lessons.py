"""The tutorial's lessons, the same for the terminal client and the page: each a position record,
the moves it expects and what to say.

A lesson is a game record (docs/records.md) from a set-up position whose moves are the moves
the player is to make, in order, each with three texts: what to do (`ask`), why the lesson
wants that move and no other (`why`, shown when another move is made) and what it did
(`done`). tests/client/test_tutorial.py replays every lesson's record with the engine, so a
lesson whose moves the rules refuse cannot ship. A position says only what sets it apart: the
lines it leaves out are a record's defaults (docs/records.md: empty, round 1, no points, White to
move, no abstaining).

The lessons are data, `LESSONS`, in English, marked for the catalogues; each client gives them
in its language when they are shown (`Lesson.in_language` with the client's lookup). The
terminal client reads them here (client/screens/tutorial.py) and the page reads them from
web/lessons.mjs, written from them with the engine's states by `make web-words`
(server/net/web_lessons.py). A few sentences name the terminal's keys or marks; `ON_THE_PAGE`
says those the page's way.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from catalogue import N_

HEADER = "kahuna-record 1\nvariant1 no\nvariant2 no\nhandicap none\n"


@attrs.frozen
class LessonStep:
    move: str  # the record's line: the seat, then the action in the game's notation
    ask: str
    why: str
    done: str
    then: tuple[str, ...] = ()  # record lines that follow the move: a reshuffle's order

    def in_language(self, translate: Callable[[str], str]) -> LessonStep:
        return attrs.evolve(
            self, ask=translate(self.ask), why=translate(self.why), done=translate(self.done)
        )

    @property
    def seat(self) -> str:
        return self.move.split()[0]

    @property
    def action(self) -> str:
        return self.move.split(maxsplit=1)[1]


@attrs.frozen
class Lesson:
    key: str
    title: str
    intro: str
    position: str  # the record's 'position' ... 'end' block
    steps: tuple[LessonStep, ...]
    outro: str

    def in_language(self, translate: Callable[[str], str]) -> Lesson:
        """The lesson with its texts through `translate` (they are kept in English)."""
        return attrs.evolve(
            self,
            title=translate(self.title),
            intro=translate(self.intro),
            steps=tuple(step.in_language(translate) for step in self.steps),
            outro=translate(self.outro),
        )

    def record(self) -> str:
        """The lesson as a whole record: the position, then every expected move."""
        lines = [HEADER + self.position.strip("\n")]
        for step in self.steps:
            lines.append(step.move)
            lines.extend(step.then)
        return "\n".join(lines) + "\n"


PLACING = """\
position
  hand white BARI COCO GOLA
  hand black ALOA DUDA ELAI
  face-up FAAA HUNA IFFI
  pile JOJO KAHU LALE ALOA BARI COCO DUDA ELAI FAAA GOLA HUNA IFFI JOJO KAHU LALE
end"""

DRAWING = """\
position
  bridges white BARI-COCO COCO-GOLA
  bridges black ALOA-DUDA DUDA-ELAI
  hand white GOLA
  hand black ALOA ELAI
  face-up FAAA HUNA IFFI
  pile LALE JOJO KAHU ALOA BARI DUDA ELAI FAAA HUNA IFFI JOJO KAHU LALE
  played BARI COCO DUDA
  face-down COCO GOLA
  opponent-abstained yes
end"""

CONTROL = """\
position
  bridges white ALOA-DUDA DUDA-ELAI
  bridges black ALOA-HUNA HUNA-IFFI HUNA-LALE
  hand white BARI DUDA KAHU
  hand black GOLA JOJO
  face-up COCO FAAA IFFI
  pile JOJO KAHU LALE BARI COCO ELAI FAAA GOLA IFFI
  played ALOA ALOA DUDA ELAI HUNA HUNA LALE
end"""

REMOVING = """\
position
  bridges white HUNA-IFFI IFFI-LALE
  bridges black ELAI-IFFI IFFI-JOJO IFFI-KAHU
  hand white ELAI IFFI IFFI
  hand black JOJO KAHU
  face-up ALOA BARI COCO
  pile DUDA FAAA GOLA HUNA LALE ALOA BARI COCO DUDA
  played ELAI FAAA GOLA HUNA JOJO KAHU LALE
end"""

# The rulebook's detailed example: docs/examples/rulebook-example.kahuna (a test keeps the two
# the same position and moves).
RULEBOOK = """\
position
  bridges white ALOA-DUDA DUDA-ELAI DUDA-HUNA ELAI-HUNA BARI-ELAI BARI-FAAA
  bridges black ALOA-BARI ALOA-HUNA HUNA-IFFI HUNA-LALE ELAI-FAAA ELAI-IFFI ELAI-JOJO
  hand white BARI ALOA KAHU
  hand black HUNA HUNA ELAI GOLA
  face-up COCO JOJO LALE
  pile FAAA IFFI DUDA KAHU
  played ALOA BARI COCO DUDA ELAI FAAA GOLA IFFI JOJO LALE
end"""

ROUND_END = """\
position
  bridges white ALOA-BARI ALOA-DUDA
  bridges black JOJO-KAHU
  hand white LALE
  hand black GOLA
  face-up KAHU
  played ALOA BARI COCO COCO DUDA ELAI ELAI FAAA FAAA GOLA HUNA HUNA IFFI JOJO JOJO
  face-down ALOA BARI DUDA IFFI KAHU LALE
end"""

FINAL = """\
position
  bridges white ALOA-BARI ALOA-DUDA BARI-COCO BARI-FAAA COCO-FAAA COCO-KAHU GOLA-KAHU
  bridges black ELAI-IFFI ELAI-JOJO IFFI-JOJO HUNA-IFFI IFFI-LALE JOJO-KAHU FAAA-JOJO
  hand white KAHU
  hand black GOLA
  face-up LALE
  played ALOA BARI COCO DUDA DUDA ELAI ELAI FAAA FAAA GOLA HUNA HUNA IFFI IFFI JOJO
  face-down ALOA BARI COCO JOJO KAHU LALE
  round 3
  points 1:0 0:2
end"""


# Every lesson, in order, in English: N_ marks each text for the catalogues, and each client
# gives them in its language when they are shown.
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "placing",
        N_("Placing a bridge"),
        N_(
            "Kahuna is played with island cards. On your turn you play cards, then draw. "
            "One card builds a bridge on a free line that touches its island. "
            "You are White: your hand is BARI COCO GOLA."
        ),
        PLACING,
        (
            LessonStep(
                "white place BARI-COCO",
                N_("Build a bridge from BARI to COCO with your BARI card: place BARI-COCO"),
                N_("The lesson wants the BARI card played on the line BARI-COCO."),
                N_("Your bridge (=) lies on BARI-COCO; the BARI card went to the discards."),
            ),
            LessonStep(
                "white place GOLA-COCO",
                N_(
                    "The first island named is the card played. Build COCO-GOLA with your "
                    "GOLA card, keeping the COCO: place GOLA-COCO"
                ),
                N_(
                    "place COCO-GOLA would play your COCO card; this lesson keeps it and "
                    "plays GOLA: place GOLA-COCO."
                ),
                N_("Two bridges, one card left. Now the turn ends with a draw."),
            ),
            LessonStep(
                "white take FAAA",
                N_("Take the face-up FAAA card (F3 in a game): take FAAA"),
                N_(
                    "This lesson ends the turn by taking the face-up FAAA: take FAAA. "
                    "(draw would take the pile's top card instead.)"
                ),
                N_("FAAA is in your hand; the pile's top card, JOJO, turned up in its place."),
            ),
        ),
        N_("Tab completes the commands while you type them in a game."),
    ),
    Lesson(
        "drawing",
        N_("Drawing, taking and abstaining"),
        N_(
            "Every turn ends with one draw: take a face-up card, draw the pile's top card, "
            "or abstain and draw nothing. You may not abstain when your opponent abstained "
            "on the turn just before; with five cards in hand you cannot draw."
        ),
        DRAWING,
        (
            LessonStep(
                "white take HUNA",
                N_("Black abstained on the last turn, so you must draw. Take the face-up HUNA."),
                N_(
                    "Black abstained just before, so abstaining is not allowed now; the "
                    "lesson takes the face-up HUNA: take HUNA."
                ),
                N_("HUNA is in your hand; LALE turned up from the pile."),
            ),
            LessonStep(
                "black abstain",
                N_("Now play Black: Black keeps the cards and draws nothing: abstain"),
                N_("Black ends this turn without drawing: abstain."),
                N_("Black abstained: on the next turn White has to draw."),
            ),
            LessonStep(
                "white draw",
                N_("White again: draw the top card of the pile (F2 in a game): draw"),
                N_(
                    "After Black's abstaining White must draw; the lesson wants the pile's "
                    "top card: draw."
                ),
                N_("You drew JOJO. In a game only you see a card drawn from the pile."),
            ),
        ),
        N_("A card taken from the face-up row is seen by both; a drawn card stays secret."),
    ),
    Lesson(
        "control",
        N_("Control and the sweep"),
        N_(
            "Under each island, 3of5 says how many of its lines win it: more than half. "
            "Whoever gets them puts a token (○ ●) on it, and every opponent bridge on that "
            "island is swept away. Black holds HUNA with 3 of its 5 lines."
        ),
        CONTROL,
        (
            LessonStep(
                "white place BARI-ALOA",
                N_(
                    "ALOA needs 2 of its 3 lines and you have ALOA-DUDA. Win ALOA with "
                    "your BARI card."
                ),
                N_(
                    "The bridge that wins ALOA is BARI-ALOA, built with the BARI card you "
                    "hold: place BARI-ALOA."
                ),
                N_(
                    "You won ALOA. Black's ALOA-HUNA was swept away, so Black has only 2 "
                    "of HUNA's 5 lines left and lost HUNA too."
                ),
            ),
            LessonStep(
                "white draw",
                N_("End the turn: draw"),
                N_("The lesson ends the turn with: draw"),
                N_("One bridge won an island and cost Black another."),
            ),
        ),
        N_("Watch for such chains: a sweep can take islands next to the one won."),
    ),
    Lesson(
        "removing",
        N_("Removing a bridge with two cards"),
        N_(
            "Two cards played together remove an opponent's bridge: each must show one of "
            "its islands (A+A, A+B or B+B). A third card may then build your own bridge "
            "there. Black holds IFFI with 3 of its 5 lines."
        ),
        REMOVING,
        (
            LessonStep(
                "white remove ELAI-IFFI ELAI+IFFI",
                N_(
                    "Remove Black's ELAI-IFFI with your ELAI and one IFFI card: "
                    "remove ELAI-IFFI ELAI+IFFI"
                ),
                N_(
                    "The lesson removes ELAI-IFFI with ELAI+IFFI and keeps the other IFFI "
                    "card for the next bridge."
                ),
                N_(
                    "The bridge is gone and Black lost IFFI. Removing never wins an island "
                    "by itself: you still have 2 of its 5 lines."
                ),
            ),
            LessonStep(
                "white place IFFI-ELAI",
                N_("Build your own bridge on the free line with your last card: place IFFI-ELAI"),
                N_("Your IFFI card builds IFFI-ELAI: the third of IFFI's lines for you."),
                N_("3 of 5: IFFI is yours, and Black's IFFI-JOJO and IFFI-KAHU were swept away."),
            ),
            LessonStep(
                "white abstain",
                N_("Your hand is empty. End the turn without drawing: abstain"),
                N_("The lesson ends this turn with: abstain"),
                N_("Black may not abstain on the next turn."),
            ),
        ),
        N_("Three cards turned Black's island into yours."),
    ),
    Lesson(
        "rulebook",
        N_("The rulebook's example"),
        N_(
            "The detailed example of the rulebook. White holds DUDA (3 of its 4 lines); "
            "Black holds ALOA (2 of 3) and HUNA (3 of 5). White holds BARI ALOA KAHU."
        ),
        RULEBOOK,
        (
            LessonStep(
                "white place BARI-DUDA",
                N_("White: win BARI (3 of its 5 lines) with the BARI card, on BARI-DUDA."),
                N_("The example begins with the BARI card on BARI-DUDA: place BARI-DUDA"),
                N_("White won BARI; Black's ALOA-BARI went, and with it Black's ALOA."),
            ),
            LessonStep(
                "white place ALOA-BARI",
                N_("White: now win ALOA with the ALOA card, on the free line ALOA-BARI."),
                N_("Next the ALOA card on ALOA-BARI: place ALOA-BARI"),
                N_("White won ALOA; Black's ALOA-HUNA went, and with it Black's HUNA."),
            ),
            LessonStep(
                "white draw",
                N_("White ends the turn: draw"),
                N_("White ends the turn by drawing from the pile: draw"),
                N_("White drew FAAA. Black's turn."),
            ),
            LessonStep(
                "black remove ELAI-HUNA HUNA+HUNA",
                N_("Black: remove White's ELAI-HUNA with both HUNA cards."),
                N_("Black plays the two HUNA cards: remove ELAI-HUNA HUNA+HUNA"),
                N_("The line ELAI-HUNA is free again."),
            ),
            LessonStep(
                "black place ELAI-HUNA",
                N_("Black: put a bridge there with the ELAI card."),
                N_("The ELAI card builds Black's bridge on ELAI-HUNA: place ELAI-HUNA"),
                N_(
                    "Black won HUNA and ELAI at once; White's HUNA-DUDA, DUDA-ELAI and "
                    "ELAI-BARI went, and White lost DUDA."
                ),
            ),
        ),
        N_("Islands change hands fast: count the lines before you build."),
    ),
    Lesson(
        "round",
        N_("The end of a round"),
        N_(
            "A round ends when the pile is empty and the last face-up card is taken. Then "
            "whoever has more tokens on the board scores: 1 point after round 1, 2 after "
            "round 2. The discards are shuffled into a new pile."
        ),
        ROUND_END,
        (
            LessonStep(
                "white take KAHU",
                N_("The pile is empty. Take the last face-up card: take KAHU"),
                N_("The lesson ends the round by taking the last face-up card: take KAHU"),
                N_(
                    "Round 1 is scored: White has 1 token, Black none, so White gets 1 "
                    "point. The discards were shuffled: a new row and pile."
                ),
                then=(
                    "shuffle HUNA IFFI ELAI COCO JOJO FAAA BARI LALE GOLA DUDA COCO ELAI "
                    "FAAA HUNA JOJO IFFI ALOA KAHU BARI ALOA DUDA",
                ),
            ),
        ),
        N_("Hands, bridges and tokens stay; round 2 begins with Black."),
    ),
    Lesson(
        "final",
        N_("The final scoring"),
        N_(
            "After the third round each player has one last turn without drawing, which "
            "ends with 'end'. Then whoever has more tokens scores the difference. Black "
            "leads 2 to 1."
        ),
        FINAL,
        (
            LessonStep(
                "white take LALE",
                N_("Take the last face-up card: take LALE"),
                N_("The lesson ends round 3 by taking the last face-up card: take LALE"),
                N_("The cards are out: Black has one last turn, then you."),
            ),
            LessonStep(
                "black end",
                N_("Play Black: Black has nothing to build. End the last turn: end"),
                N_("Black ends the last turn at once: end"),
                N_("Your last turn."),
            ),
            LessonStep(
                "white place KAHU-LALE",
                N_("Win KAHU (3 of its 5 lines) with your KAHU card on KAHU-LALE."),
                N_("The KAHU card on KAHU-LALE wins KAHU: place KAHU-LALE"),
                N_("KAHU is yours, and Black's JOJO-KAHU is swept away."),
            ),
            LessonStep(
                "white end",
                N_("End your last turn: end"),
                N_("Ending your turn ends the game: end"),
                N_("The final scoring: you have 4 tokens, Black 2, so you score 2 and win 3 to 2."),
            ),
        ),
        N_("On a tie, the final scoring decides, then the bridges on the board."),
    ),
)


# The sentences the page says its own way: the terminal's keys (F2, F3, Tab) and marks (=, ○ ●,
# 3of5) are not the page's, where a line's bridge is drawn in its colour and "3/5" is under an
# island. Keyed by the English of LESSONS (tests/web/test_learn_data.py checks each is one).
ON_THE_PAGE: dict[str, str] = {
    "Your bridge (=) lies on BARI-COCO; the BARI card went to the discards.": N_(
        "Your bridge lies on BARI-COCO; the BARI card went to the discards."
    ),
    "Take the face-up FAAA card (F3 in a game): take FAAA": N_(
        "Take the face-up FAAA card: take FAAA"
    ),
    "Tab completes the commands while you type them in a game.": N_(
        "In a game, a card you pick lights up the lines it can bridge."
    ),
    "White again: draw the top card of the pile (F2 in a game): draw": N_(
        "White again: draw the top card of the pile: draw"
    ),
    (
        "Under each island, 3of5 says how many of its lines win it: more than half. "
        "Whoever gets them puts a token (○ ●) on it, and every opponent bridge on that "
        "island is swept away. Black holds HUNA with 3 of its 5 lines."
    ): N_(
        "Under each island, 3/5 says how many of its lines win it: more than half. "
        "Whoever gets them puts a token on it, and every opponent bridge on that "
        "island is swept away. Black holds HUNA with 3 of its 5 lines."
    ),
}


def on_the_page(lesson: Lesson) -> Lesson:
    """The lesson as the page says it, in English: the sentences of ON_THE_PAGE replaced."""
    return lesson.in_language(lambda text: ON_THE_PAGE.get(text, text))
