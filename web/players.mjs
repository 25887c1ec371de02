// The players as the page names them (name, rating, away, a link to their page), and the table's two players' boxes:
// seat, name, points, pieces, open cards and clock.

import { clockLeft, clockText } from "./clock.mjs";
import { el } from "./dom.mjs";
import { tableOf } from "./state.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

// A deleted account's stand-in in the archive (docs/protocol.md, Version 4, "Your own account"):
// no account and no guest goes by such a name, and it has no page.
const STAND_IN = /^deleted #\d+$/;

// A player's page (/player/NAME): their rating's history, results and games; a stand-in's name
// is only a name.
export function playerLink(name, className = null) {
  if (STAND_IN.test(name)) return el("span", { class: className ? `${className} deleted` : "deleted", text: name });
  return el("a", { href: `/player/${encodeURIComponent(name)}`, "data-link": "player", class: className, text: name });
}

// A rating's change as a games list says it: +14, −14 (a minus sign, not a hyphen), ±0.
export function signedChange(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

// A seat's player in the lobby's rows: the name, a link to their page where they have an account
// (a rating), and the rating; "(empty seat)" for nobody.
export function playerName(players, seat) {
  const p = players ? players[seat] : null;
  if (!p) return _("(empty seat)");
  const account = typeof p.rating === "number" && !p.computer;
  const rest = playerLabel(players, seat).slice(p.name.length);
  return account ? el("span", { class: "player-name" }, playerLink(p.name), rest) : playerLabel(players, seat);
}

export function playerLabel(players, seat) {
  const p = players ? players[seat] : null;
  if (!p) return _("(empty seat)");
  let text = p.name;
  if (p.rating !== undefined && p.rating !== null) text += ` ${p.rating}`;
  if (!p.connected && !p.computer) text += ` ${_("(away)")}`;
  return text;
}

export function playerBoxes(known, pub, mySeat) {
  const info = tableOf(known);
  const scores = [0, 0];
  for (const [w, b] of pub.round_points) {
    scores[0] += w;
    scores[1] += b;
  }
  return ["white", "black"].map((seat, i) =>
    el(
      "div",
      { class: `player ${seat}${pub.to_move === seat && known.status === "playing" ? " to-move" : ""}` },
      el("span", { class: "seat", text: seatName(seat) }),
      el("span", { class: "pname", text: playerLabel(known.players, seat) + (seat === mySeat ? ` ${_("(you)")}` : "") }),
      el("span", { class: "score", text: t("{n} pt", { n: scores[i] }) }),
      el("span", {
        class: "counts",
        text: fmt(_("tokens {tokens} bridges {bridges} cards {cards}"), {
          tokens: pub.tokens[seat].length,
          bridges: pub.bridges[seat].length,
          cards: pub.hand_sizes[seat],
        }),
      }),
      pub.open_cards[seat].length
        ? el("span", { class: "open-cards", text: `${_("open:")} ${pub.open_cards[seat].join(" ")}` })
        : null,
      info.clock ? el("span", { class: "clock", text: clockText(clockLeft(known, seat)) }) : null,
    ),
  );
}
