// The server's refusals and closings in the page's language, from their codes, as the terminal
// client says them (client/words.py): the tables are the catalogue package's (catalogue/codes.py),
// written out as web/code-words.mjs, and their sentences are the catalogue's keys.

import { ACCOUNT_ERRORS, ACCOUNT_REASONS, CLOSINGS, ERRORS, REFUSALS } from "./code-words.mjs";
import { _, fmt, seatName } from "./words.mjs";

// Version 3's refusals (accounts, challenges, the archive), or null for any other.
export function accountWords(m) {
  const found = ACCOUNT_REASONS[`${m.code}/${m.reason || ""}`];
  if (found) return filled(found, m.params || {}) || _(found);
  const template = ACCOUNT_ERRORS[m.code];
  const values = { ...(m.params || {}) };
  // a mute's end (version 4's muted), in the page's language and the visitor's time
  if (/^\d+$/.test(String(values.until || ""))) {
    values.until = new Date(Number(values.until) * 1000).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
  }
  return template ? filled(template, values) : null;
}

// A code's sentence in the page's language with its {fields} filled from the error's
// parameters; null where the parameters are not the ones it needs.
function filled(template, values) {
  const said = fmt(_(template), values);
  return /\{\w+\}/.test(said) ? null : said;
}

// Why the rules refuse an action, from its reason and parameters; null for a reason this page
// does not know or parameters it did not expect.
export function refusalWords(reason, params) {
  const template = REFUSALS[reason];
  if (!template) return null;
  const values = { ...(params || {}) };
  if (values.seat) values.seat = seatName(values.seat);
  return filled(template, values);
}

// Any refusal: the sentence from its codes, or the server's English message where the page has
// none (or where the message carries the detail, as for illegal_action without a reason).
export function errorWords(m) {
  const said = accountWords(m) || (m.reason ? refusalWords(m.reason, m.params) : null) || (ERRORS[m.code] ? _(ERRORS[m.code]) : null);
  return said || m.message;
}

// Why a table closed, from its code ({player} is a name); the server's English otherwise.
export function closingWords(m) {
  const sentence = CLOSINGS[m.code || ""];
  return sentence ? fmt(_(sentence), { player: (m.params && m.params.player) || "" }) : m.reason;
}

// A refusal the page finds itself, before sending (web/legality.mjs's refusal, or a code of the
// server's own such as not_your_turn): the same sentence the server's answer would give.
export function codeWords(code, params) {
  return refusalWords(code, params) || (ERRORS[code] ? _(ERRORS[code]) : code);
}
