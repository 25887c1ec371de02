// "Your move", said beyond the table: the tab's title and icon, a short beep (WebAudio, no
// file; off unless the player turns it on) and, for a game of days, the browser's notification
// while the tab is hidden (once the player allowed it with the button here).

import { el } from "./dom.mjs";
import { render, tableOf } from "./state.mjs";
import { t } from "./words.mjs";

const SOUND_KEY = "kahuna.sound"; // a preference, not a secret

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function soundOn() {
  return stored(SOUND_KEY) === "on";
}

function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // a browser that keeps nothing: no sound after a reload
  }
}

let audio = null;

export function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // no audio here: the title and the icon still say it
  }
}

const ICON = "/assets/icon.svg";
// the page's icon with a yellow dot: "your move" (img-src allows data: URLs)
const TURN_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#2b6e92"/>' +
      '<path d="M16 44L32 18L48 44" fill="none" stroke="#fbfbf7" stroke-width="6" stroke-linecap="round"/>' +
      '<circle cx="16" cy="44" r="9" fill="#e9d8a6"/><circle cx="32" cy="18" r="9" fill="#e9d8a6"/>' +
      '<circle cx="48" cy="44" r="9" fill="#e9d8a6"/><circle cx="50" cy="14" r="13" fill="#ffd84d" stroke="#1d2327" stroke-width="3"/></svg>',
  );

export function setIcon(yourMove) {
  const link = document.querySelector("link[rel=icon]");
  const want = yourMove ? TURN_ICON : ICON;
  if (link && link.getAttribute("href") !== want) link.setAttribute("href", want);
}

const correspondence = (known) => Boolean(tableOf(known).clock && tableOf(known).clock.days);

// Called at every drawing of the table: a turn that has just become the player's is signalled
// once (known.signalled keeps which version was).
export function signalTurn(known, yourMove) {
  setIcon(yourMove);
  if (!yourMove) {
    known.signalled = null;
    return;
  }
  if (known.signalled !== null && known.signalled !== undefined) return;
  known.signalled = known.version;
  if (soundOn()) beep();
  if (correspondence(known) && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("Kahuna", { body: t("Your move at table {id}", { id: known.id }), tag: `kahuna-${known.id}` });
  }
}

// The sound's switch, and the notifications' button in a game of days.
export function signalButtons(known) {
  const on = soundOn();
  const buttons = [
    el("button", {
      type: "button",
      id: "sound",
      "aria-pressed": String(on),
      text: on ? t("Sound: on") : t("Sound: off"),
      onclick: () => {
        setSound(!on);
        if (!on) beep();
        render();
      },
    }),
  ];
  if (correspondence(known) && "Notification" in window && Notification.permission !== "denied") {
    const granted = Notification.permission === "granted";
    buttons.push(
      el("button", {
        type: "button",
        id: "notify",
        disabled: granted,
        text: granted ? t("Notifications on") : t("Notify me of my move"),
        onclick: () => Notification.requestPermission().then(() => render()),
      }),
    );
  }
  return el("div", { class: "signals" }, ...buttons);
}
