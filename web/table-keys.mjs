// The table's keys, as the terminal client has them (client/screens/keys.py): 1 to 5 pick a
// card of the hand, n and p (or the arrows on a line) go to the next and previous playable
// line, Enter acts on what has the focus, d draws, a abstains, e ends the last turn, u undoes.
// A key that cannot be done says why, as a click does. Typing in a field is left alone.
// And the focus: every control has a stable key, so that after a redraw it goes back to the
// same control, or to the nearest thing to act on, never to <body>.

import { onCard } from "./moves.mjs";
import { app, render, shown } from "./state.mjs";
import { tellWhy, whyNotNow } from "./table-why.mjs";

// A control's key: the same control after a redraw has the same key.
export function focusKey(node) {
  if (!node || node === document.body || !node.getAttribute) return null;
  for (const attr of ["id", "data-line", "data-action", "data-slot", "data-take"]) {
    const value = node.getAttribute(attr);
    if (value) return [attr, value];
  }
  return null;
}

const escape = (value) => (window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/"/g, '\\"'));

function byKey(root, key) {
  const [attr, value] = key;
  return attr === "id" ? document.getElementById(value) : root.querySelector(`[${attr}="${escape(value)}"]`);
}

function focusable(node) {
  return node && !node.matches(":disabled") && node.getClientRects().length > 0;
}

// After the table's redraw: the control that had the focus, else (it went: a choice taken, a
// card played) the next thing to act on, else the status line.
export function restoreFocus(root, key) {
  if (!key) return;
  const again = byKey(root, key);
  if (focusable(again)) {
    again.focus({ preventScroll: true });
    return;
  }
  const next = [
    key[0] === "data-line" ? ".line.active" : null,
    "#choices button",
    ".hand .card.playable",
    ".line.active",
    "#draw.playable",
    ".faceup.playable",
    "#turn",
  ];
  for (const selector of next) {
    const found = selector ? root.querySelector(selector) : null;
    if (focusable(found)) {
      found.focus({ preventScroll: true });
      return;
    }
  }
}

function activeLines() {
  return [...document.querySelectorAll("svg.board .line.active")];
}

function stepLine(by) {
  const lines = activeLines();
  if (!lines.length) return false;
  const at = lines.indexOf(document.activeElement);
  const next = at < 0 ? (by > 0 ? 0 : lines.length - 1) : (at + by + lines.length) % lines.length;
  lines[next].focus();
  return true;
}

// A button's key: its click, or (the button disabled: the connection lost, a spectator) why
// not, rather than nothing.
function explainNow() {
  const why = whyNotNow(shown());
  if (why) tellWhy(why, render);
  return true;
}

// (a button in the disabled fieldset is :disabled, though its own .disabled is false)
const usable = (node) => node && !node.matches(":disabled");

function clickById(id) {
  const button = document.getElementById(id);
  if (usable(button)) button.click();
  else explainNow();
  return true;
}

function typing(target) {
  return target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

function onKey(event) {
  if (!app.current || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  if (event.target.closest && event.target.closest(".analysis")) return; // the chart's own keys
  const known = shown();
  if (!known || !known.view) return;
  const key = event.key;
  let done = false;
  if (/^[1-5]$/.test(key) && known.role !== "spectator") {
    const slot = document.querySelector(`.hand .card[data-slot="${key}"]`);
    if (slot && !usable(slot)) done = explainNow();
    else if (slot) {
      if (slot.classList.contains("playable")) {
        onCard(slot.getAttribute("data-card"));
        const again = document.querySelector(`.hand .card[data-slot="${key}"]`);
        if (again) again.focus();
      } else slot.click(); // says why
      done = true;
    }
  } else if (key === "n" || ((key === "ArrowRight" || key === "ArrowDown") && event.target.closest && event.target.closest(".line"))) {
    done = stepLine(1);
  } else if (key === "p" || ((key === "ArrowLeft" || key === "ArrowUp") && event.target.closest && event.target.closest(".line"))) {
    done = stepLine(-1);
  } else if (key === "d") done = clickById("draw");
  else if (key === "a") done = clickById("abstain");
  else if (key === "e") done = clickById("end");
  else if (key === "u") done = clickById("undo");
  else if (key === "Escape" && app.selection) {
    app.selection = null;
    render();
    done = true;
  }
  if (done) event.preventDefault();
}

let installed = false;

export function installTableKeys() {
  if (installed) return;
  installed = true;
  document.addEventListener("keydown", onKey);
}
