"""Every sentence the page says has its German and Italian: from the terminal client's
catalogue, or for the page's own few words from web/page-words.json; and the page's tables of
the server's codes are client/code_words.py's."""

from __future__ import annotations

import json
import re

from client.code_words import TABLES, es_module
from server.web import WEB_DIR, WebPages

# _("..."), t("...") and fmt(_("...")): the keys the page looks up, as written in its modules
CALL = re.compile(r'\b(?:_|t)\(\s*"((?:[^"\\]|\\.)*)"')
REASON = re.compile(r'^\s+\w+: "((?:[^"\\]|\\.)*)",$', re.MULTILINE)


def page_keys() -> set[str]:
    keys: set[str] = set()
    for module in WEB_DIR.glob("*.mjs"):
        text = module.read_text(encoding="utf-8")
        keys |= {json.loads(f'"{k}"') for k in CALL.findall(text)}
    events = (WEB_DIR / "events.mjs").read_text(encoding="utf-8")
    block = events[events.index("const REASONS") : events.index("};")]
    keys |= set(REASON.findall(block))
    keys |= {sentence for table in TABLES.values() for sentence in table.values()}
    return keys


def test_every_sentence_of_the_page_is_translated() -> None:
    keys = page_keys()
    assert "{seat} placed a bridge on {line} with {card}" in keys  # the log's
    assert "Bridge {line} with {card}" in keys  # the page's own
    assert "{seat} ran out of time" in keys  # a reason
    assert "it is not your turn" in keys  # a refusal's, from web/code-words.mjs
    pages = WebPages()
    for language in ("de", "it"):
        found = pages.find(f"/words/{language}.json")
        assert found is not None
        words = json.loads(found.body)
        missing = sorted(k for k in keys if not words.get(k))
        assert missing == [], language
        # a translation keeps the fields the page fills in
        for key in keys:
            value = words[key]
            assert isinstance(value, str)
            assert set(re.findall(r"\{(\w+)\}", value)) == set(re.findall(r"\{(\w+)\}", key))


def test_the_page_words_are_only_the_pages_own() -> None:
    """A sentence the client's catalogue has is not translated again beside it."""
    own = json.loads((WEB_DIR / "page-words.json").read_text(encoding="utf-8"))
    pages = WebPages()
    for language, words in own.items():
        catalogue = pages.catalogue(language)
        assert not set(words) & set(catalogue), language
        assert set(words) <= page_keys()  # and none is left over


def test_the_pages_tables_of_codes_are_the_terminals() -> None:
    """web/code-words.mjs is written from client/code_words.py (`make web-words`): the page says
    a refusal as the terminal client does, and a code added there reaches the page."""
    written = (WEB_DIR / "code-words.mjs").read_text(encoding="utf-8")
    assert written == es_module(), "web/code-words.mjs is out of date: run `make web-words`"
    assert '"not_your_turn": "it is not your turn"' in written
