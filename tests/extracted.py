"""What the catalogues translate: the messages of the terminal client, of this package, of the
server (its mails and their pages) and of the page, as `make pot` extracts them with Babel
(catalogue/babel.cfg); the tests check each has its German and Italian."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("client", "catalogue", "server", "web")  # the directories `make pot` extracts from
MAPPING = ROOT / "catalogue" / "babel.cfg"
# the page's t(msgid, fields), besides Babel's default keywords (the Makefile's `-k t`)
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None}

# (msgctxt, msgid, msgid_plural)
Key = tuple[str | None, str, str | None]


def messages() -> Iterator[tuple[Key, str]]:
    """Each message with where it is ("client/language/words.py:12"), in the order of the files."""
    with MAPPING.open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    for source in SOURCES:
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / source, method_map, options_map, keywords=KEYWORDS
        ):
            if isinstance(message, tuple):
                key: Key = (context, message[0], message[1] or None)
            else:
                key = (context, message, None)
            yield key, f"{source}/{filename}:{lineno}"
