"""The game's words, below every layer that says them: the English sentences keyed by code
(catalogue.codes: refusals, closings, endings, the log's events) and the gettext catalogues that
translate them (catalogue/locale/LANG/LC_MESSAGES/kahuna.po, compiled to kahuna.mo beside it).

Data only, importing nothing of the game: the terminal client (client.language.i18n,
client.language.words), the server's web pages (the page's /words/LANG.json) and the rules engine's
English (shared.results) read it, and the page's tables are written from it (`make web-words`,
web/code-words.mjs).
"""

from __future__ import annotations

from pathlib import Path

DOMAIN = "kahuna"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# English is the source language: its sentences are the msgids, it has no catalogue
LANGUAGES = ("en", "de", "it")


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is defined; `_()` translates it where shown."""
    return message
