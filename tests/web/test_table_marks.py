"""The board's marks of what can be done now, and of the last turn, at 3:1 contrast at least
against what they lie on (WCAG 1.4.11), measured from the page's computed colours: the
playable lines and islands on the sea, the playable cards' borders on the paper."""

from __future__ import annotations

import pytest

from tests.web.conftest import Pages
from tests.web.table_helpers import my_turn, sit_against_the_computer

pytestmark = pytest.mark.browser

CONTRASTS = """
() => {
  const rgb = (text) => text.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = (text) => {
    const [r, g, b] = rgb(text).map((v) => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const style = (s) => {
    const e = document.querySelector(s);
    return e ? getComputedStyle(e) : null;
  };
  const sea = style("svg.board .sea").fill;
  const paper = getComputedStyle(document.documentElement).backgroundColor;
  const found = {
    line: ratio(style("svg.board .line.active .mark").stroke, sea),
    island: ratio(style("svg.board .island.playable .ring").stroke, sea),
    card: ratio(style(".hand .card.playable").borderTopColor, paper),
  };
  const recent = style("svg.board .line.bridge.recent .under");
  if (recent) found.recent = ratio(recent.stroke, sea);
  return found;
}
"""


async def test_the_marks_stand_out_at_three_to_one(pages: Pages) -> None:
    page = await pages.open("/")
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    await page.click("#draw")  # the computer's turn follows: its bridges are the last turn's
    await my_turn(page, table_id)
    await page.wait_for_selector("svg.board .line.bridge.recent")
    found = await page.evaluate(CONTRASTS)
    assert set(found) == {"line", "island", "card", "recent"}
    print("contrast of the marks:", {k: round(v, 2) for k, v in found.items()})
    assert all(value >= 3 for value in found.values()), found
