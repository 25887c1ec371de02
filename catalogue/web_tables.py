"""web/code-words.mjs, the page's tables, written from the catalogue (`make web-words`, which
runs this module; tests/web/test_words.py checks the committed file is a fresh one): the page
says a code, an ending and a log line with the terminal client's English keys, and translates
them with the same catalogue.
"""

from __future__ import annotations

import json

from catalogue.codes import (
    ACCOUNT_ERRORS,
    ACCOUNT_REASONS,
    CLOSINGS,
    ERRORS,
    MODERATION_ACTIONS,
    MODERATORS,
    REFUSALS,
)
from catalogue.endings import GAME_OVER_NOTES, NEITHER_HAS_A_BRIDGE, REASONS
from catalogue.events import EVENTS

# The tables the page says (it words a seat taken back elsewhere its own way, so not LEFT);
# the reasons' "neither" is no_bridges with no loser.
TABLES: dict[str, dict[str, str]] = {
    "refusals": REFUSALS,
    "account_reasons": ACCOUNT_REASONS,
    "account_errors": ACCOUNT_ERRORS,
    "errors": ERRORS,
    "closings": CLOSINGS,
    "reasons": {**REASONS, "neither": NEITHER_HAS_A_BRIDGE},
    "events": EVENTS,
    "game_over_notes": GAME_OVER_NOTES,
    "moderation_actions": MODERATION_ACTIONS,
    "moderators": MODERATORS,
}


def es_module() -> str:
    """web/code-words.mjs: the tables as an ES module for the page."""
    lines = [
        "// Written by `make web-words` from the catalogue package (catalogue/): the server's",
        "// codes, the endings and the log's sentences in English, the catalogue's keys",
        "// (web/words.mjs translates them). Do not edit.",
        "",
    ]
    for name, table in TABLES.items():
        text = json.dumps(table, ensure_ascii=False, indent=2)
        lines.append(f"export const {name.upper()} = {text};")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(es_module(), end="")
