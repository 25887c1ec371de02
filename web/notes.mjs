// A table's notes (draw and rematch offers, a claim open, a rematch begun, a game too short to
// rate): what each changes of the table's state until the next view says it again, and what the
// page tells the player.

import { app } from "./state.mjs";
import { beep, soundOn } from "./table-signals.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

const NOTE_CHANGES = {
  draw_offered: (info, m) => { info.draw_offer = m.seat; },
  draw_declined: (info) => { info.draw_offer = null; },
  rematch_offered: (info, m) => { info.rematch_offer = m.seat; },
  rematch_declined: (info) => { info.rematch_offer = null; },
  rematch_started: (info, m) => { info.rematch_table = m.detail; },
  claim_available: (info, m) => { info.claim = m.seat; },
};

export function onNote(m) {
  const known = app.tables.get(m.table_id);
  if (known && known.view && NOTE_CHANGES[m.note]) {
    const view = known.view;
    if (!view.table) view.table = {};
    NOTE_CHANGES[m.note](view.table, m);
  }
  const who = m.seat ? seatName(m.seat) : "";
  const words = {
    draw_offered: t("{seat} offers a draw.", { seat: who }),
    draw_declined: t("{seat} declined the draw.", { seat: who }),
    rematch_offered: t("{seat} offers a rematch.", { seat: who }),
    rematch_declined: t("The rematch offer fell."),
    claim_available: t("{seat} may claim the win.", { seat: who }),
    rematch_started: fmt(_("Rematch at table {table}"), { table: m.detail || "" }),
    // version 4: said where the rating change would come, lest its absence look like a fault
    not_rated: m.detail === "too_short" ? `${_("Not rated: the game ended before each player had played 2 turns")}.` : "",
  };
  if (m.table_id === app.current && words[m.note]) app.notice = words[m.note];
}

// A round's game is ready for the player (player_note tournament_round): the page shows its
// link (web/tournament.mjs) and the tab's title says it; here the sound, if on, and the
// browser's notification while the tab is hidden (once the player allowed them at a table).
export function tournamentRoundNote(m) {
  if (soundOn()) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const body = t("Your tournament game against {name} is ready: table {table}.", { name: m.name || "", table: m.table_id });
    new Notification("Kahuna", { body, tag: `kahuna-${m.table_id}` });
  }
}
