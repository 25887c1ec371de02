// The page's words in English, German or Italian, looked up gettext's way: the English msgid
// is the key. The catalogue is the terminal client's (catalogue/locale/LANG/LC_MESSAGES/kahuna.mo,
// served as /words/LANG.json), so the same sentence shows the same translation; the words only
// the page says are there too, extracted by Babel from these modules (`make pot`: _(), t(),
// ngettext(), pgettext() with a literal msgid). English needs no catalogue.

export const LANGUAGES = [
  ["en", "English"],
  ["de", "Deutsch"],
  ["it", "Italiano"],
];
const STORE_KEY = "kahuna.language"; // a preference, not a secret
let catalogue = {};
let current = "en";

export function language() {
  return current;
}

export function preferredLanguage() {
  const codes = LANGUAGES.map(([code]) => code);
  let stored = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    stored = null;
  }
  if (codes.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (codes.includes(code)) return code;
  }
  return "en";
}

export async function setLanguage(code, remember = false) {
  let words = {};
  if (code !== "en") {
    const answer = await fetch(`/words/${code}.json`);
    if (!answer.ok) throw new Error(`no words for ${code}`);
    words = await answer.json();
  }
  catalogue = words;
  current = code;
  document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(STORE_KEY, code);
    } catch {
      // a browser that keeps nothing: the choice lasts as long as the page
    }
  }
}

// gettext's _(): the translation, or the English when there is none.
export function _(msgid) {
  const found = catalogue[msgid];
  return typeof found === "string" && found ? found : msgid;
}

// pgettext: a word with a context (the catalogue's key is CONTEXT\x04MSGID).
export function pgettext(context, msgid) {
  const found = catalogue[`${context}\u0004${msgid}`];
  return typeof found === "string" && found ? found : msgid;
}

// ngettext for English, German and Italian: one form for 1, the other for the rest.
export function ngettext(singular, plural, n) {
  const found = catalogue[singular];
  const index = n === 1 ? 0 : 1;
  if (Array.isArray(found) && found[index]) return found[index];
  return index === 0 ? singular : plural;
}

// str.format's named fields, as the catalogue's sentences use them: "{seat} won {island}".
export function fmt(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole,
  );
}

export function t(msgid, params) {
  return params ? fmt(_(msgid), params) : _(msgid);
}

export function seatName(seat) {
  return seat === "white" ? _("White") : _("Black");
}
