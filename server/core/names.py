"""When two names are one: a registered name is reserved in every spelling that a reader would
take for it, by Unicode Technical Standard #39 (Unicode Security Mechanisms) as ICU implements it
(PyICU's SpoofChecker, from the pyicu-wheels builds, with the confusables data of the ICU they
carry).

`name_key` is the confusable skeleton of UTS #39 (NFD, every character mapped to the prototype
it is drawn like, NFD: Cyrillic А and Greek Α are A, ɑ is a, 0 is O, I and 1 are l, m is rn),
made blind to case as well: a reader takes "ann" for "Ann" too. Compatibility forms are folded
first (NFKC: fullwidth letters, ligatures), and format characters (zero-width joiners, bidi
controls) do not make a name another. Accents are not look-alikes: Åsa and Asa are two people,
as they are on Lichess.

`account_name_problem` refuses what UTS #39 says misleads a reader: characters outside its
identifier profile (Identifier_Status=Allowed: no format or control characters, no obsolete or
technical letters such as ɑ, ᴄ or Cherokee Ꭺ), a mix of scripts below its "moderately
restrictive" level (Latin with Cyrillic or Greek in one name), digits of two numbering systems,
and invisible marks stacked on one letter. Names in one script, Greek or Cyrillic included, are
welcome.

The skeleton depends on the ICU version's data: accounts keep the key they were stored under,
and the server looks each one up by its name's key of today as well (server/core/accounts.py).
"""

from __future__ import annotations

import unicodedata

import icu  # type: ignore[import-untyped]  # PyICU ships no type hints

NAME_MIN = 2
NAME_MAX = 20
# the server's name for its computer player, and the moderation log's for its operator
RESERVED = ("computer", "operator")
SEPARATORS = " _-"  # allowed in a name besides letters and digits

_checker = icu.SpoofChecker()
_checker.setRestrictionLevel(icu.URestrictionLevel.MODERATELY_RESTRICTIVE)
_checker.setChecks(
    icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.INVISIBLE | icu.USpoofChecks.MIXED_NUMBERS
)
_ALLOWED = icu.UnicodeSet(_checker.getRecommendedUnicodeSet())
_ALLOWED.freeze()

UNICODE_VERSION: str = icu.UNICODE_VERSION  # of the confusables data in use
ICU_VERSION: str = icu.ICU_VERSION


def skeleton(text: str) -> str:
    """UTS #39's skeleton of the text (the type argument is ignored since ICU 58: one table)."""
    return str(_checker.getSkeleton(0, text))


def _folded(text: str) -> str:
    # the skeleton first (I is l, Cherokee Ꭺ is A), then case, then the skeleton of what case
    # folding made (a lower-case letter may be drawn like another)
    return skeleton(skeleton(text).casefold())


def name_key(name: str) -> str:
    """The form of the name under which it is reserved (two names with one key are one)."""
    text = unicodedata.normalize("NFKC", name)
    # invisible and joining characters do not make a name another
    visible = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc"))
    folded = _folded(" ".join(visible.split()))
    # Case and look-alikes together: "ian" is "Ian" (case), which is "lan" (I is drawn like l).
    # The capitals of the folded name are folded again, so that every spelling whose capitals
    # or small letters pass for another's meets it.
    return _folded(folded.upper())


def stand_in_like(name: str) -> bool:
    """Whether the name passes for a deleted account's stand-in ("deleted #N", which no
    account can have: "#" is not in a name): no guest goes by one either, so that an archived
    game's stand-in is only ever that."""
    return name_key(name).startswith(name_key("deleted #"))


def account_name_problem(name: str) -> str | None:
    """Why the name cannot be registered, as a code, or None."""
    if len(name) < NAME_MIN:
        return "too_short"
    if len(name) > NAME_MAX:
        return "too_long"
    if name != name.strip() or "  " in name:
        return "bad_characters"
    # combining marks are not alphanumeric: accented letters come precomposed (NFC) or not at
    # all; UTS #39's identifier profile leaves out format characters and look-alike letters
    if not all((ch.isalnum() and _ALLOWED.contains(ch)) or ch in SEPARATORS for ch in name):
        return "bad_characters"
    if name.replace(" ", "").replace("_", "").replace("-", "").isdigit():
        return "only_digits"
    if _checker.check(name) != 0:
        return "mixed_scripts"
    key = name_key(name)
    if any(key.startswith(name_key(reserved)) for reserved in RESERVED):
        return "reserved"
    return None
