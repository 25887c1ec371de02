"""The command words in the player's language, and lines read between them and the notation.

The notation (place BARI-DUDA, take COCO, ...) is the one canonical form of records and of the
protocol; the player may also type each command word in the chosen language (the catalogs'
"command" context: 'setze BARI-DUDA', 'piazza BARI-DUDA'), which is read as the notation.
Both the command line (client.model.commands) and the sentences (client.language.words) need these
words, so they live here, below both.
"""

from __future__ import annotations

from client.language.i18n import pgettext

VERBS = ("place", "remove", "discard", "take", "draw", "abstain", "end", "handicap", "undo")


def local_words() -> dict[str, str]:
    """Each command word (or phrase) of the notation -> its word in the chosen language."""
    words = {
        "place": pgettext("command", "place"),
        "remove": pgettext("command", "remove"),
        "discard": pgettext("command", "discard"),
        "take": pgettext("command", "take"),
        "draw": pgettext("command", "draw"),
        "abstain": pgettext("command", "abstain"),
        "end": pgettext("command", "end"),
        "handicap": pgettext("command", "handicap"),
        "undo": pgettext("command", "undo"),
        "offer draw": pgettext("command", "offer draw"),
        "undo turn": pgettext("command", "undo turn"),
        "say": pgettext("command", "say"),
        "help": pgettext("command", "help"),
        "save": pgettext("command", "save"),
        "lobby": pgettext("command", "lobby"),
        "resync": pgettext("command", "resync"),
        "quit": pgettext("command", "quit"),
        "hint": pgettext("command", "hint"),
        "resign": pgettext("command", "resign"),
        "accept": pgettext("command", "accept"),
        "decline": pgettext("command", "decline"),
        "claim": pgettext("command", "claim"),
        "rematch": pgettext("command", "rematch"),
        "offer": pgettext("command", "offer"),
        "rebuild": pgettext("command", "rebuild"),
        "turn": pgettext("command", "turn"),
        "yes": pgettext("command", "yes"),
        "analyse": pgettext("command", "analyse"),
        "report": pgettext("command", "report"),
    }
    return {k: v.lower() for k, v in words.items()}


def command_word(english: str) -> str:
    """A command word of the notation as the player types it in the chosen language."""
    return local_words().get(english, english)


def verb_names() -> list[str]:
    """The game's command words as the player may type them: the language's, then the
    notation's."""
    local = local_words()
    out = [local[v] for v in VERBS]
    return out + [v for v in VERBS if v not in out]


def canonical(line: str) -> str:
    """The line with its command words in the notation ('setze BARI-DUDA' -> 'place
    BARI-DUDA'); a line already in the notation, or a chat, is left as it is."""
    text = line.strip()
    if not text or text.startswith(("'", '"')):
        return line
    words = text.split()
    back = {v: k for k, v in local_words().items() if v != k}
    two = " ".join(words[:2]).lower()
    if len(words) >= 2 and two in back and " " in back[two]:
        return " ".join([back[two], *words[2:]])
    english = back.get(words[0].lower())
    if english is None:
        return line
    rest = words[1:]
    if english == "remove" and len(rest) == 3 and rest[2].lower() in back:
        rest[2] = back[rest[2].lower()]
    return " ".join([english, *rest])


def in_words(move: str) -> str:
    """A move of the notation with its command words in the chosen language, as the player
    types it ('setze BARI-COCO' in German; the tutorial takes both)."""
    words = move.split()
    local = local_words()
    if " ".join(words[:2]) in local:  # 'undo turn'
        return " ".join([local[" ".join(words[:2])], *words[2:]])
    words[0] = local.get(words[0], words[0])
    if words[-1] == "rebuild":
        words[-1] = local["rebuild"]
    return " ".join(words)
