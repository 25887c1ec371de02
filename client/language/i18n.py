"""The client's words in the player's language: English, German or Italian.

Standard gettext: every sentence the client shows goes through `_()` (or `ngettext()`), the
catalogs are the catalogue package's, `catalogue/locale/<lang>/LC_MESSAGES/kahuna.po` (what
translators edit) compiled to `kahuna.mo` beside them, and the standard library's gettext loads
them. English is the source
language: with no catalog, the English text is shown.

The language comes from `--lang`, else from the locale variables (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG, in gettext's order), else English.
"""

from __future__ import annotations

import gettext

# the catalogue's, said from here too (re-exported); the choice of a language is the
# catalogue's so that the server's command line makes it alike (server/cli/moderation_cli.py)
from catalogue import DEFAULT as DEFAULT
from catalogue import DOMAIN as DOMAIN
from catalogue import LANGUAGES as LANGUAGES
from catalogue import LOCALE_DIR as LOCALE_DIR
from catalogue import N_ as N_
from catalogue import choose_language as choose_language

_catalog: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


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


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The message in the chosen language, told apart by its context (a command word)."""
    return _catalog.pgettext(context, message)


# argparse's own words (the usage line, its errors), which it looks up with gettext at the time
# it says them: marked here so that the catalogs hold them, and answered from the client's
# catalog once `speak_to_argparse` has run.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("the following arguments are required: %s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("%(prog)s: error: %(message)s\n"),
)


def speak_to_argparse() -> None:
    """argparse's messages in the chosen language from now on (argparse reads its module's
    `_` and `ngettext` each time it says something)."""
    import argparse

    setattr(argparse, "_", _)  # noqa: B010 (the module's private name)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010


def language_asked(argv: list[str]) -> str | None:
    """The --lang of a command line, read before the parser is made (its help is in that
    language); None when it is not given, or not one of ours (the parser then says so)."""
    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value in LANGUAGES:
            return value
    return None
