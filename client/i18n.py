"""The client's words in the player's language: English, German or Italian.

Standard gettext: every sentence the client shows goes through `_()` (or `ngettext()`), the
catalogs are `client/locale/<lang>/LC_MESSAGES/kahuna.po` (what translators edit) compiled to
`kahuna.mo` beside them, and the standard library's gettext loads them. English is the source
language: with no catalog, the English text is shown.

The language comes from `--lang`, else from the locale variables (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG, in gettext's order), else English.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "kahuna"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "de", "it")
DEFAULT = "en"

_catalog: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


def choose_language(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: the flag's, else the first of the locale's that we speak."""
    if flag:
        if flag not in LANGUAGES:
            raise ValueError(f"{flag!r} is not a language of this client: {', '.join(LANGUAGES)}")
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


def set_language(language: str) -> None:
    """Speak this language from now on (English when it has no catalog)."""
    global _catalog, _language
    if language not in LANGUAGES:
        raise ValueError(f"{language!r} is not a language of this client")
    _language = language
    if language == DEFAULT:
        _catalog = gettext.NullTranslations()
    else:
        _catalog = gettext.translation(
            DOMAIN, localedir=LOCALE_DIR, languages=[language], fallback=True
        )


def language() -> str:
    return _language


def _(message: str) -> str:
    """The message in the chosen language."""
    return _catalog.gettext(message)


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined; `_()` translates it where shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The message in the chosen language, told apart by its context (a command word)."""
    return _catalog.pgettext(context, message)
