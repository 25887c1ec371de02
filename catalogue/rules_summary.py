"""The rules in short, in English: the page's /rules says them in the player's language (the
catalogues translate them, their German and Italian worded after the German Kosmos and the
Italian rulebooks), and docs/rules.md opens with the same text, `markdown()`, between its two
marker lines (tests/web/test_rules_summary.py holds the two equal; `python -m
catalogue.rules_summary` prints the section to paste). The rulings that settle what the
rulebooks leave open stay in docs/rules.md, below the summary.
"""

from __future__ import annotations

import textwrap

from catalogue import N_

# (heading, paragraphs), in the order they are read
SUMMARY: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        N_("The game"),
        (
            N_(
                "Kahuna is a game for two players by Günter Cornett. Two sorcerers build bridges "
                "between twelve islands of the South Seas to bring as many islands as they can "
                "under their control. There are three scorings; whoever has more points after "
                "the third wins."
            ),
            N_(
                "The twelve islands are joined by 27 lines. Each player has 25 bridges and 10 "
                "tokens. There are 24 island cards, two of each island. Each player starts with "
                "three cards in hand, three more lie face up, and the rest are the face-down "
                "draw pile."
            ),
        ),
    ),
    (
        N_("A turn"),
        (
            N_(
                "On your turn you play any number of your cards, one at a time, then draw one "
                "card. A card builds one of your bridges on a free line that starts at the "
                "card's island and leads to a neighbouring island."
            ),
            N_(
                "Two cards played together remove one of your opponent's bridges: each must "
                "show one of the two islands it joins (HUNA-ELAI goes with HUNA and ELAI, two "
                "HUNA or two ELAI). A third card of one of those islands may then put your own "
                "bridge on the freed line."
            ),
            N_(
                "Instead of playing them, you may put cards face down under the discard pile. "
                "You never hold more than five cards: with five in hand, play or discard before "
                "you draw."
            ),
            N_(
                "The turn ends with one draw: take one of the face-up cards (it is replaced at "
                "once from the pile), draw the top card of the pile, or abstain. You may not "
                "abstain when your opponent abstained on the turn just before."
            ),
        ),
    ),
    (
        N_("Control"),
        (
            N_(
                "Whoever has bridges on more than half of an island's lines controls it and puts "
                "a token on it: 3/5 under an island means 3 of its 5 lines. Every opponent's "
                "bridge on that island is then removed, which can cost the opponent the islands "
                "next to it. Removing a bridge never wins an island by itself."
            ),
        ),
    ),
    (
        N_("Scoring"),
        (
            N_(
                "A round ends when the draw pile is empty and the last face-up card is taken. "
                "After the first round, whoever has more tokens on the board gets 1 point; after "
                "the second, 2 points; a tie scores nothing. The discards are shuffled into a new "
                "pile with three cards face up; hands, bridges and tokens stay, and the other "
                "player moves next."
            ),
            N_(
                "After the third round each player has one last turn, without drawing. Then "
                "whoever has more tokens scores the difference. The higher total wins; on a tie, "
                "the higher final scoring; then more bridges on the board; then nobody."
            ),
            N_(
                "In the second or third round, a player with no bridge left on the board loses "
                "at once."
            ),
        ),
    ),
    (
        N_("Variants and handicap"),
        (
            N_(
                "Variant 1: no bridge on a line with an opponent's token at either end; after a "
                "removal, your own bridge may be rebuilt there without a third card. Variant 2: "
                "a card taken from the face-up row lies open in front of its owner. Handicap: "
                "the weaker player places one to three bridges before the first turn."
            ),
        ),
    ),
)

BEGIN = "<!-- The rules in short: catalogue/rules_summary.py, python -m catalogue.rules_summary -->"
END = "<!-- end of the rules in short -->"


def markdown() -> str:
    """docs/rules.md's summary section, its marker lines included."""
    lines = [BEGIN, "", "## The rules in short"]
    for heading, paragraphs in SUMMARY:
        lines += ["", f"### {heading}"]
        for paragraph in paragraphs:
            lines += ["", *textwrap.wrap(paragraph, 100)]
    lines += ["", END]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
