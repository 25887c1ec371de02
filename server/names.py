"""When two names are one: a registered name is reserved in every spelling that a reader would
take for it. `name_key` is the skeleton two names share when they look alike: Unicode
compatibility forms folded (NFKC: fullwidth letters, ligatures), case folded, and the letters of
other scripts that are drawn like Latin ones mapped to them (Cyrillic А, Greek Ο), after
Unicode's confusables (UTS #39) for the letters people use to impersonate; digits and letters that
pass for each other (0/o, 1/l/I) likewise, and "rn" for "m".

Accents are not look-alikes: Åsa and Asa are two people, as they are on Lichess.
"""

from __future__ import annotations

import unicodedata

# Letters of Cyrillic, Greek and other scripts drawn as a Latin letter (lower case: the key is
# case-folded first), and the Latin ones that pass for another.
_LOOK_ALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "l", "ї": "l", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ү": "y", "ӏ": "l", "ө": "o", "з": "3", "ъ": "b",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "γ": "y", "μ": "u", "ϲ": "c", "ϳ": "j",
    # Latin and digits that pass for one another
    "0": "o", "1": "l", "i": "l", "|": "l", "ı": "l", "ℓ": "l", "5": "s", "$": "s",
}  # fmt: skip
_TABLE = str.maketrans(_LOOK_ALIKES)

NAME_MIN = 2
NAME_MAX = 20
RESERVED = ("computer",)  # the server's name for its computer player


def name_key(name: str) -> str:
    """The form of the name under which it is reserved (two names with one key are one)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # invisible and joining characters do not make a name another
    visible = "".join(ch for ch in folded if unicodedata.category(ch) not in ("Cf", "Mn", "Me"))
    key = " ".join(visible.translate(_TABLE).split())
    return key.replace("rn", "m").replace("vv", "w")


def account_name_problem(name: str) -> str | None:
    """Why the name cannot be registered, as a code, or None."""
    if len(name) < NAME_MIN:
        return "too_short"
    if len(name) > NAME_MAX:
        return "too_long"
    if name != name.strip() or "  " in name:
        return "bad_characters"
    # combining marks are not alphanumeric: accented letters come precomposed (NFC) or not at all
    if not all(ch.isalnum() or ch in " _-" for ch in name):
        return "bad_characters"
    if name.replace(" ", "").replace("_", "").replace("-", "").isdigit():
        return "only_digits"
    key = name_key(name)
    if any(key.startswith(name_key(reserved)) for reserved in RESERVED):
        return "reserved"
    return None
