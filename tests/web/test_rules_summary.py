"""docs/rules.md opens with the rules in short that the page's /rules says: the section between
its two marker lines is catalogue/rules_summary.py's English, so the two cannot drift; the
rulings below it are the project's own."""

from __future__ import annotations

from pathlib import Path

from catalogue.rules_summary import BEGIN, END, SUMMARY, markdown

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_the_summary_in_docs_is_the_catalogues() -> None:
    text = RULES.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    start = text.index(BEGIN)
    section = text[start : text.index(END) + len(END)] + "\n"
    assert section == markdown(), (
        "docs/rules.md's summary differs from catalogue/rules_summary.py: paste the output of "
        "`python -m catalogue.rules_summary` between its marker lines"
    )


def test_the_summary_comes_before_the_rulings_which_stay() -> None:
    text = RULES.read_text(encoding="utf-8")
    rulings = [f"**R{n} (" for n in range(1, 20)]
    assert all(text.count(ruling) == 1 for ruling in rulings)
    assert text.index(END) < text.index(rulings[0])
    # every paragraph is in the section, whole (the wrapping aside)
    flat = " ".join(text.split())
    for heading, paragraphs in SUMMARY:
        assert f"### {heading}" in text
        assert all(paragraph in flat for paragraph in paragraphs)
