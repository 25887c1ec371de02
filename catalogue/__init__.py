"""The game's words, below every layer that says them: the English sentences keyed by code
(catalogue.codes: refusals, closings, endings, the log's events) and the gettext catalogues that
translate them (catalogue/locale/LANG/LC_MESSAGES/kahuna.po, compiled to kahuna.mo beside it).

Data only, importing nothing of the game: the terminal client (client.language.i18n,
client.language.words), the server's web pages (the page's /words/LANG.json), the operator's
moderation log (server/cli/moderation_cli.py) and the rules engine's English (shared.results)
read it, and the page's tables are written from it (`make web-words`, web/code-words.mjs). Beside
the data, the one rule that picks a language from the locale, which the client's command line and
the server's share.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "kahuna"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
# English is the source language: its sentences are the msgids, it has no catalogue
LANGUAGES = ("en", "de", "it")
DEFAULT = "en"


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is defined; `_()` translates it where shown."""
    return message


def choose_language(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: the flag's, else the first of the locale's that we speak."""
    if flag:
        if flag not in LANGUAGES:
            raise ValueError(f"{flag!r} is not one of the languages: {', '.join(LANGUAGES)}")
        return flag
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if not value:
            continue
        # LANGUAGE is a colon-separated list of preferences; the others hold one locale.
        for locale in value.split(":"):
            code = locale.split("_")[0].split(".")[0].split("@")[0].lower()
            if code in LANGUAGES:
                return code
            if code in ("c", "posix"):
                return DEFAULT
        if key != "LANGUAGE":  # the first locale variable that is set decides
            return DEFAULT
    return DEFAULT
