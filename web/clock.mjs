// The players' clocks: the time left as the last view said it, less what has passed since for
// the one running; ticked on the screen between messages.

import { shown, tableOf } from "./state.mjs";

export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function clockLeft(known, seat) {
  const clock = tableOf(known).clock;
  if (!clock) return null;
  let ms = clock[seat];
  if (clock.running === seat) ms -= performance.now() - known.receivedAt;
  return ms;
}

export function tickClocks() {
  const known = shown();
  if (!known) return;
  for (const seat of ["white", "black"]) {
    const node = document.querySelector(`.player.${seat} .clock`);
    const ms = clockLeft(known, seat);
    if (node && ms !== null) node.textContent = clockText(ms);
  }
}
