"""docs/web.md's list of the page's modules is the page's modules: each one of web/ named once,
and nothing named there that is not in web/; none of the page's tooling under web/, where the
server would serve it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
ROW = re.compile(r"^\| `([\w./-]+\.mjs)` \|", re.MULTILINE)


def test_every_module_of_the_page_is_listed_once() -> None:
    named = ROW.findall((ROOT / "docs" / "web.md").read_text(encoding="utf-8"))
    modules = sorted(str(path.relative_to(WEB)) for path in WEB.rglob("*.mjs"))
    assert sorted(named) == modules


def test_the_lint_tooling_is_outside_the_served_folder() -> None:
    for name in ("package.json", "package-lock.json", "eslint.config.mjs", "node_modules"):
        assert not (WEB / name).exists(), name
    assert (ROOT / "package-lock.json").exists()
