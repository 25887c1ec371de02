// The rules in short at /rules, in the page's language: the catalogue's summary
// (catalogue/rules_summary.py, written into web/lessons.mjs), the same English that opens
// docs/rules.md, translated by the same catalogue as every other sentence of the page.

import { el, replace } from "./dom.mjs";
import { RULES } from "./lessons.mjs";
import { _ } from "./words.mjs";

export function renderRules(main) {
  document.title = `Kahuna · ${_("The rules in short")}`;
  replace(
    main,
    el(
      "article",
      { class: "rules", "aria-labelledby": "rules-title" },
      el("h1", { id: "rules-title", text: _("The rules in short") }),
      ...RULES.map((section) =>
        el("section", {}, el("h2", { text: _(section.heading) }), ...section.paragraphs.map((text) => el("p", { text: _(text) }))),
      ),
      el(
        "p",
        { class: "rules-links" },
        el("a", { href: "/learn", "data-link": "learn", text: _("Lessons on the board") }),
        el("a", { href: "/", "data-link": "lobby", text: _("Back to the lobby") }),
      ),
    ),
  );
}
