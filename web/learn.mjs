// The lessons at /learn: the terminal client's tutorial on the page's board. Each lesson is a
// position and the moves it expects (web/lessons.mjs, written from catalogue/lessons.py with the
// engine's state after each move); the player makes each move as at a table, by a card and a
// line, a face-up card, the pile or a button. The page's legality (web/legality.mjs) offers the
// legal moves; the lesson's move is played and explained, any other refused with the lesson's
// reason, and the rules' when the rules refuse it too. Where the player is stays in the
// browser's local storage, so a reload goes on from there.

import { drawBoard } from "./board.mjs";
import { REFUSALS } from "./code-words.mjs";
import { byId, el, replace } from "./dom.mjs";
import { playWords } from "./events.mjs";
import { parseAction } from "./legality.mjs";
import { LESSONS } from "./lessons.mjs";
import { computerGame } from "./new-table.mjs";
import { app, render } from "./state.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

const STORE_KEY = "kahuna.lessons"; // progress, not a secret

const learn = {
  loaded: false,
  index: 0,
  step: 0,
  done: new Set(), // the keys of the lessons played to their end
  selection: null, // {card} or {line}, as at the table
  said: null, // {words, kind}: the last answer to the player, null: the lesson's question
};

function load() {
  learn.loaded = true;
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
  } catch {
    kept = null;
  }
  if (!kept || typeof kept !== "object") return;
  const keys = LESSONS.map((lesson) => lesson.key);
  const index = keys.indexOf(kept.lesson);
  if (index >= 0) {
    learn.index = index;
    const step = Number(kept.step);
    learn.step = Number.isInteger(step) && step >= 0 && step <= LESSONS[index].steps.length ? step : 0;
  }
  if (Array.isArray(kept.done)) learn.done = new Set(kept.done.filter((key) => keys.includes(key)));
}

function save() {
  const kept = { lesson: LESSONS[learn.index].key, step: learn.step, done: [...learn.done] };
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(kept));
  } catch {
    // a browser that keeps nothing: the lessons go on as long as the page
  }
}

const lesson = () => LESSONS[learn.index];
const finished = () => learn.step >= lesson().steps.length;
const state = () => lesson().states[learn.step];

// The position as the player to move sees it: the view a seat gets from the server.
function view() {
  const now = state();
  const seat = now.public.to_move;
  return { seat, public: now.public, hand: now.hands[seat] };
}

function legalNow() {
  if (finished()) return [];
  const ctx = app.rules.contextFromView(view());
  return ctx ? app.rules.legalActions(ctx) : [];
}

function open(index) {
  learn.index = Math.min(Math.max(index, 0), LESSONS.length - 1);
  learn.step = 0;
  learn.selection = null;
  learn.said = null;
  save();
  render();
}

// `words` makes the sentence when drawn, so that a language switched meanwhile says it anew.
function say(kind, words) {
  learn.said = { words, kind };
}

// The rules' reason for a turn's end the rules refuse now (shared/legality.py's codes, whose
// sentences are the catalogue's): the buttons stay usable so that a wrong one is explained.
function refusal(action, ctx) {
  const verb = action.split(" ")[0];
  const handSize = ctx.hand.reduce((sum, n) => sum + n, 0);
  if (verb === "end") return "end_not_final";
  if (ctx.phase === "final") return "final_no_draw";
  if (verb === "abstain") return "abstain_twice";
  if (handSize >= app.board.hand_limit) return "hand_full_draw";
  if (verb === "draw") return "pile_empty";
  return null;
}

function refuse(step, reason) {
  if (reason && REFUSALS[reason]) {
    say("error", () => fmt(_("Not allowed: {reason}. {why}"), { reason: _(REFUSALS[reason]), why: _(step.why) }));
  } else {
    say("error", () => fmt(_("A legal move, but not the one this lesson means. {why}"), { why: _(step.why) }));
  }
}

// A move the player made: the lesson's next one is played, any other refused.
function attempt(action) {
  if (finished()) return;
  const step = lesson().steps[learn.step];
  learn.selection = null;
  const actions = legalNow();
  if (!actions.includes(action)) {
    refuse(step, refusal(action, app.rules.contextFromView(view())));
  } else if (action !== step.action) {
    refuse(step, null);
  } else {
    learn.step += 1;
    if (finished()) {
      learn.done.add(lesson().key);
      say("you", () => `${_(step.done)} ${_("Lesson done.")}`);
    } else {
      const next = lesson().steps[learn.step];
      say("you", () => `${_(step.done)} ${fmt(_("Next: {ask}"), { ask: _(next.ask) })}`);
    }
    save();
  }
  render();
  focusAfterMove();
}

// After a move the focus goes to what was said, not to the page's body.
function focusAfterMove() {
  const next = finished() ? byId("learn-next") || byId("learn-play") : null;
  (next && !next.disabled ? next : byId("learn-say")).focus();
}

function choicesFor(actions, selection) {
  if (!selection) return [];
  return actions.filter((a) => {
    const parsed = parseAction(app.rules, a);
    if (selection.line !== undefined) return parsed.line === selection.line;
    return parsed.cards[0] === selection.card && (parsed.verb === "place" || parsed.verb === "discard");
  });
}

function onLine(k, event) {
  if (event) event.learnSeen = true; // the board's own click: the board's listener skips it
  const actions = legalNow();
  let options = choicesFor(actions, { line: k });
  const card = learn.selection && learn.selection.card;
  if (card) {
    const withCard = options.filter((a) => parseAction(app.rules, a).cards.includes(card));
    if (withCard.length) options = withCard;
  }
  if (!options.length) {
    onDeadLine(app.board.lines[k].name);
    return;
  }
  if (options.length === 1) {
    attempt(options[0]);
    return;
  }
  learn.selection = { line: k };
  render();
  const first = document.querySelector("#learn-choices button");
  if (first) first.focus();
}

// A line no move of the player's uses now: clicked, it says so, with the lesson's reason.
function onDeadLine(name) {
  if (finished()) return;
  const step = lesson().steps[learn.step];
  say("error", () => `${fmt(_("No move of yours uses {line} now."), { line: name })} ${_(step.why)}`);
  learn.selection = null;
  render();
}

// A long press on an island: what its "3/5" means.
function onIsland(island) {
  say("you", () => `${island.name}: ${t("needs {n} of {d} lines", { n: island.needed, d: island.degree })}`);
  render();
}

function onCard(card) {
  const same = learn.selection && learn.selection.card === card;
  learn.selection = same ? null : { card };
  render();
}

function boardNode(actions, choices) {
  const active = new Set();
  for (const a of learn.selection && learn.selection.card ? choices : actions) {
    const parsed = parseAction(app.rules, a);
    if (parsed.line !== null && parsed.line !== undefined) active.add(parsed.line);
  }
  const playable = new Set();
  for (const a of actions) {
    const parsed = parseAction(app.rules, a);
    if (parsed.verb === "place") playable.add(parsed.cards[0]);
  }
  const selected = learn.selection && learn.selection.line !== undefined ? learn.selection.line : null;
  const recent = new Set(state().recent);
  const marks = { active, playable, selected, recent, recentIslands: new Set(), fresh: null, onLine, onIsland, onTap: () => {} };
  const board = drawBoard(app.board, state().public, marks);
  // a click on a line the board leaves without a listener (one no move uses) is said too
  board.addEventListener("click", (event) => {
    const line = !event.learnSeen && event.target.closest && event.target.closest("[data-line]");
    if (line) onDeadLine(line.getAttribute("data-line"));
  });
  return board;
}

const button = (id, text, onclick, disabled = false) =>
  el("button", { type: "button", id, text, disabled, onclick });

function handNode(actions) {
  const { seat, hand } = view();
  const label = fmt(_("{seat}'s hand"), { seat: seatName(seat) });
  return el(
    "div",
    { class: "hand", role: "group", "aria-label": label },
    el("span", { class: "label", text: label }),
    ...hand.map((card) => {
      const usable = actions.some((a) => parseAction(app.rules, a).cards[0] === card && /^(place|discard)/.test(a));
      const picked = Boolean(learn.selection && learn.selection.card === card);
      return el("button", {
        type: "button",
        class: `card${picked ? " selected" : ""}`,
        "data-card": card,
        disabled: !usable,
        "aria-pressed": String(picked),
        text: card,
        onclick: () => onCard(card),
      });
    }),
    hand.length ? null : el("span", { class: "dim", text: _("no cards") }),
  );
}

function rowNode() {
  const pub = state().public;
  const over = finished();
  return el(
    "div",
    { class: "row", role: "group", "aria-label": _("Face up") },
    el("span", { class: "label", text: _("Face up") }),
    ...pub.face_up.map((card) =>
      el("button", {
        type: "button",
        class: "card faceup",
        "data-take": card,
        disabled: over,
        "aria-label": `${_("take")} ${card}`,
        text: card,
        onclick: () => attempt(`take ${card}`),
      }),
    ),
    el("button", {
      type: "button",
      class: "pile",
      id: "learn-draw",
      disabled: over,
      text: `${_("Pile")} ${pub.pile_size}`,
      onclick: () => attempt("draw"),
    }),
  );
}

function pointsNode() {
  const pub = state().public;
  const points = (seat) => pub.round_points.reduce((sum, p) => sum + p[seat === "white" ? 0 : 1], 0);
  const line = (seat) =>
    el("li", {
      class: `seat ${seat}${pub.to_move === seat && !pub.result ? " to-move" : ""}`,
      text: `${seatName(seat)}: ${fmt(_("{p} pt, tokens {t}"), { p: points(seat), t: pub.tokens[seat].length })}`,
    });
  const round = `${_("round")} ${pub.round}`;
  return el("ul", { class: "learn-points", "aria-label": round }, line("white"), line("black"), el("li", { class: "dim", text: round }));
}

// What was played in the lesson so far: each move and what it did, then the lesson's last word.
function toldNode() {
  const current = lesson();
  const moves = current.steps.slice(0, learn.step).map((step) =>
    el(
      "li",
      {},
      el("span", { class: "move", text: `${seatName(step.seat)}: ${playWords(step.action)}` }),
      " ",
      el("span", { text: _(step.done) }),
    ),
  );
  return el(
    "div",
    { class: "told" },
    moves.length ? el("ol", { "aria-label": _("lesson") }, ...moves) : null,
    finished() ? el("p", { class: "outro", text: _(current.outro) }) : null,
  );
}

function lessonList() {
  return el(
    "nav",
    { class: "lesson-list", "aria-label": _("Lessons") },
    el(
      "ol",
      {},
      ...LESSONS.map((each, i) => {
        const done = learn.done.has(each.key);
        return el(
          "li",
          { class: done ? "done" : null },
          el(
            "button",
            {
              type: "button",
              class: "link",
              "data-lesson": each.key,
              "aria-current": i === learn.index ? "step" : null,
              onclick: () => open(i),
            },
            `${i + 1}. ${_(each.title)}`,
            // the mark for the eye, the words for a screen reader
            done ? el("span", { class: "tick", "aria-hidden": "true", text: " ✓" }) : null,
            done ? el("span", { class: "unseen", text: ` (${_("Lesson done.")})` }) : null,
          ),
        );
      }),
    ),
    el("p", {}, el("a", { href: "/rules", "data-link": "rules", text: _("The rules in short") })),
    el("p", {}, el("a", { href: "/", "data-link": "lobby", text: _("Back to the lobby") })),
  );
}

// What had the focus, to give it back after the drawing: an id, or a card's, line's or
// lesson's data attribute (those have no id).
const KEPT = ["data-card", "data-line", "data-take", "data-lesson", "data-action"];

function focusedNow() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  if (active.id) return `#${active.id}`;
  const attr = KEPT.find((name) => active.hasAttribute && active.hasAttribute(name));
  return attr ? `.learn [${attr}="${active.getAttribute(attr)}"]` : null;
}

function focusAgain(selector) {
  if (!selector) return;
  const usable = (node) => !node.disabled && (selector.startsWith("#") || node.getAttribute("tabindex") !== "-1");
  const again = [...document.querySelectorAll(selector)].find(usable);
  (again || byId("learn-say")).focus(); // never the page's body
}

export function renderLearn(main) {
  if (!learn.loaded) load();
  const focused = focusedNow();
  const current = lesson();
  const over = finished();
  const actions = legalNow();
  const choices = choicesFor(actions, learn.selection);
  const pub = state().public;
  document.title = `Kahuna · ${_("Lessons")}`;
  const said = learn.said
    ? { text: learn.said.words(), kind: learn.said.kind }
    : { text: over ? _("Lesson done.") : _(current.steps[learn.step].ask), kind: "you" };
  const step = over ? null : current.steps[learn.step];
  replace(
    main,
    el(
      "div",
      { class: "learn" },
      lessonList(),
      el(
        "section",
        { class: "lesson", "aria-labelledby": "learn-title" },
        el("h1", {
          id: "learn-title",
          text: fmt(_("Lesson {i} of {n}: {title}"), { i: learn.index + 1, n: LESSONS.length, title: _(current.title) }),
        }),
        el("p", { class: "intro", text: _(current.intro) }),
        el(
          "div",
          { class: "lesson-view" },
          el("div", { class: "board-wrap" }, boardNode(actions, choices)),
          el(
            "div",
            { class: "side" },
            el("p", { id: "learn-say", class: `say ${said.kind}`, role: "status", "aria-live": "polite", tabindex: "-1", text: said.text }),
            step ? el("p", { class: "dim how", text: _("Pick a card, then a line it can bridge; or a line, then what to do there. A face-up card, the pile or a button ends the turn.") }) : null,
            el(
              "div",
              { id: "learn-choices", class: "choices", role: "group", "aria-label": t("Choices") },
              ...choices.map((a) => el("button", { type: "button", "data-action": a, text: playWords(a), onclick: () => attempt(a) })),
            ),
            pointsNode(),
            handNode(actions),
            rowNode(),
            el(
              "div",
              { class: "actions" },
              button("learn-abstain", _("abstain"), () => attempt("abstain"), over),
              pub.phase === "final" ? button("learn-end", _("end"), () => attempt("end"), over) : null,
              button("learn-hint", _("Show the move"), () => {
                say("you", () => fmt(_("The lesson's move: {move}"), { move: playWords(step.action) }));
                render();
              }, over),
              button("learn-again", _("Start the lesson again"), () => open(learn.index)),
            ),
            el(
              "div",
              { class: "actions lesson-nav" },
              button("learn-back", _("Previous lesson"), () => open(learn.index - 1), learn.index === 0),
              // after the last lesson the way on is a game, not a disabled "Next lesson"
              learn.index === LESSONS.length - 1
                ? el("button", { type: "button", id: "learn-play", class: "primary", text: _("Play the computer now"), onclick: () => app.conn.send("create_table", computerGame()) })
                : button("learn-next", _("Next lesson"), () => open(learn.index + 1)),
            ),
            toldNode(),
          ),
        ),
      ),
    ),
  );
  focusAgain(focused);
}
