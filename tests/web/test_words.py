"""Every sentence the page says has its German and Italian, from the one catalogue: the page's
own words are extracted by Babel into the same .po files as the terminal client's, and its
tables of codes, endings and log sentences are written from the catalogue package."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

from babel.messages.mofile import read_mo

from catalogue import LOCALE_DIR
from catalogue.web_tables import TABLES, es_module
from server.net.web import WEB_DIR, WebPages
from tests.extracted import messages

# _("..."), t("...") and fmt(_("...")): the keys the page looks up, as written in its modules
CALL = re.compile(r'\b(?:_|t)\(\s*"((?:[^"\\]|\\.)*)"')


def written_keys() -> set[str]:
    """The keys the page's modules look up with a literal, found by a plain search."""
    keys: set[str] = set()
    for module in WEB_DIR.rglob("*.mjs"):
        if "vendor" not in module.parts:
            text = module.read_text(encoding="utf-8")
            keys |= {json.loads(f'"{k}"') for k in CALL.findall(text)}
    return keys


def page_keys() -> set[str]:
    """What the page translates: what Babel extracts from web/ (what `make pot` puts in the
    .po files), and the sentences of its tables."""
    keys = {key[1] for key, where in messages() if where.startswith("web/")}
    return keys | {sentence for table in TABLES.values() for sentence in table.values()}


def test_babel_sees_every_word_the_page_looks_up() -> None:
    """A key written where Babel's JavaScript extractor does not look (a template string's
    ${...}) would never reach the .po files, and the page would show it in English."""
    missing = written_keys() - page_keys()
    assert missing == set()
    assert "Bridge {line} with {card}" in written_keys()  # the search finds the page's words


def test_every_sentence_of_the_page_is_translated() -> None:
    keys = page_keys()
    assert "{seat} placed a bridge on {line} with {card}" in keys  # the log's
    assert "Bridge {line} with {card}" in keys  # the page's own
    assert "Take {card}" in keys  # the page's own, in a play's words
    assert "{seat} ran out of time" in keys  # a reason
    assert "it is not your turn" in keys  # a refusal's, from web/code-words.mjs
    pages = WebPages()
    for language in ("de", "it"):
        found = pages.find(f"/words/{language}.json")
        assert found is not None
        words = json.loads(found.body)
        missing = sorted(k for k in keys if not words.get(k))
        assert missing == [], language
        # a translation keeps the fields the page fills in (a plural's forms: tests/client's
        # test_translations_keep_the_placeholders)
        for key in keys:
            value = words[key]
            if isinstance(value, list):
                assert all(isinstance(form, str) and form for form in value)
                continue
            assert set(re.findall(r"\{(\w+)\}", value)) == set(re.findall(r"\{(\w+)\}", key))


def test_the_german_page_says_stab_as_the_german_edition_does() -> None:
    """The German edition's rules (and the log, the lessons, the counts) call the bridges
    Stäbe: the page's own words (its choices, its legend, its welcome) say so too, not
    Brücke, which left two names for one piece on the same screen."""
    found = WebPages().find("/words/de.json")
    assert found is not None
    words = json.loads(found.body)
    bridged = {k: words[k] for k in page_keys() if "bridge" in k.lower() and k in words}
    assert "Bridge {line} with {card}" in bridged
    said = [" ".join(v) if isinstance(v, list) else v for v in bridged.values()]
    assert [v for v in said if "Brücke" in v] == []
    assert bridged["Bridge {line} with {card}"] == "Stab auf {line} mit {card}"


def test_the_page_gets_the_catalogue_and_nothing_beside_it() -> None:
    """/words/LANG.json is the compiled .po of the catalogue package, the same file the
    terminal client reads: no second store of translations."""
    assert not (WEB_DIR / "page-words.json").exists()
    pages = WebPages()
    for language in ("de", "it"):
        found = pages.find(f"/words/{language}.json")
        assert found is not None
        with (LOCALE_DIR / language / "LC_MESSAGES" / "kahuna.mo").open("rb") as mo:
            compiled = gettext.GNUTranslations(mo)
        served = json.loads(found.body)
        assert served["Bridge {line} with {card}"] == compiled.gettext("Bridge {line} with {card}")
        for key, value in served.items():
            if isinstance(value, str) and "\x04" not in key:
                assert value == compiled.gettext(key)
        with (LOCALE_DIR / language / "LC_MESSAGES" / "kahuna.mo").open("rb") as mo:
            entries = read_mo(mo)
        assert len(served) == len([m for m in entries if m.id])


def test_the_pages_tables_are_the_catalogues() -> None:
    """web/code-words.mjs is written from the catalogue package (`make web-words`): the page
    says a refusal, an ending and a log line as the terminal client does, and a code added
    there reaches the page."""
    written = (WEB_DIR / "code-words.mjs").read_text(encoding="utf-8")
    assert written == es_module(), "web/code-words.mjs is out of date: run `make web-words`"
    assert '"not_your_turn": "it is not your turn"' in written
    assert '"time": "{seat} ran out of time"' in written
    assert '"token_placed": "{seat} won {island}"' in written
    # the tournaments' refusals: the page words them from the same table as the terminal
    assert '"bad_tournament/started": "the tournament has started"' in written
    assert '"no_such_tournament": "no tournament has this id"' in written


def test_the_pages_protocol_version_is_the_newest() -> None:
    """web/net.mjs says hello with protocol/fields.py's newest version."""
    from protocol.fields import PROTOCOL_VERSION

    net = Path(WEB_DIR / "net.mjs").read_text(encoding="utf-8")
    said = re.findall(r"^export const PROTOCOL_VERSION = (\d+);$", net, re.MULTILINE)
    assert said == [str(PROTOCOL_VERSION)]
