// What the player to move may do, in the engine's notation: shared/legality.py's legal_actions,
// written again for the page. The board and its numbers come from the server (/board.json,
// made from shared/board.py), and tests/web/test_legality.py holds this module to the Python
// engine over thousands of positions, inside Chromium: one set of rules, checked to agree.
// Only what the page needs to offer its buttons: an action the page offers is still checked by
// the server, like every client's.

// The bits set in a mask: the bridges or tokens it holds. record.mjs counts with it too.
export const popcount = (x) => {
  let n = 0;
  while (x) {
    x &= x - 1;
    n += 1;
  }
  return n;
};

export function makeRules(board) {
  const islands = board.islands.map((i) => i.name);
  const index = new Map(islands.map((name, i) => [name, i]));
  const lines = board.lines.map((l) => [l.a, l.b]);
  const lineNames = board.lines.map((l) => l.name);
  const lineIndex = new Map(lineNames.map((name, k) => [name, k]));
  const needed = board.islands.map((i) => i.needed);
  const islandMask = islands.map((_, i) =>
    lines.reduce((mask, [a, b], k) => (a === i || b === i ? mask | (1 << k) : mask), 0),
  );
  const lineEnds = lines.map(([a, b]) => (1 << a) | (1 << b));
  const allLines = (1 << lines.length) - 1;
  const perPlayer = board.bridges_per_player;
  const handLimit = board.hand_limit;

  const lineMask = (names) => names.reduce((m, name) => m | (1 << lineIndex.get(name)), 0);
  const islandBits = (names) => names.reduce((m, name) => m | (1 << index.get(name)), 0);

  // The TurnContext of shared/views.py's SeatView.turn_context: null unless it is this seat's
  // turn. `view` is a seat's view as the server sends it ({seat, public, hand, ...}).
  function contextFromView(view) {
    const pub = view.public;
    if (!view.seat || pub.to_move !== view.seat) return null;
    const hand = new Array(islands.length).fill(0);
    for (const card of view.hand) hand[index.get(card)] += 1;
    const seat = view.seat === "white" ? 0 : 1;
    return {
      options: pub.options,
      phase: pub.phase,
      seat,
      bridges: [lineMask(pub.bridges.white), lineMask(pub.bridges.black)],
      tokens: [islandBits(pub.tokens.white), islandBits(pub.tokens.black)],
      hand,
      faceUp: pub.face_up.map((c) => index.get(c)),
      pileSize: pub.pile_size,
      opponentAbstained: pub.opponent_abstained,
      handicapLeft: pub.handicap_left,
      undoable: pub.undoable || 0,
    };
  }

  // Island mask the opponent would still control at the ends of `line` after losing it.
  function opponentKeeps(ctx, line) {
    const after = ctx.bridges[1 - ctx.seat] & ~(1 << line);
    let kept = 0;
    for (const island of lines[line]) {
      if (popcount(after & islandMask[island]) >= needed[island]) kept |= 1 << island;
    }
    return kept;
  }

  const place = (card, line) => {
    const [a, b] = lines[line];
    return `place ${islands[card]}-${islands[a === card ? b : a]}`;
  };
  const remove = (line, c1, c2, rebuild) =>
    `remove ${lineNames[line]} ${islands[c1]}+${islands[c2]}${rebuild ? " rebuild" : ""}`;

  // Every legal action, as shared/legality.py's legal_actions lists them (undo left out: see
  // `undoable`), each in the notation the server reads.
  function legalActions(ctx) {
    const phase = ctx.phase;
    if (phase === "over") return [];
    const me = ctx.bridges[ctx.seat];
    const opp = ctx.bridges[1 - ctx.seat];
    let free = allLines & ~(me | opp);
    if (phase === "handicap") {
      return lines.flatMap((_, k) => ((free >> k) & 1 ? [`handicap ${lineNames[k]}`] : []));
    }
    const out = [];
    const hand = ctx.hand;
    const held = islands.flatMap((_, i) => (hand[i] ? [i] : []));
    const variant1 = Boolean(ctx.options.variant1);
    const hasSupply = popcount(me) < perPlayer;
    if (hasSupply) {
      if (variant1) {
        for (let island = 0; island < islands.length; island += 1) {
          if ((ctx.tokens[1 - ctx.seat] >> island) & 1) free &= ~islandMask[island];
        }
      }
      for (const island of held) {
        for (let k = 0; k < lines.length; k += 1) {
          if ((free & islandMask[island]) >> k & 1) out.push(place(island, k));
        }
      }
    }
    let reach = 0;
    for (const island of held) reach |= islandMask[island];
    const targets = opp & reach;
    for (let line = 0; line < lines.length; line += 1) {
      if (!((targets >> line) & 1)) continue;
      const [a, b] = lines[line];
      const ha = hand[a];
      const hb = hand[b];
      if (ha + hb < 2) continue;
      const rebuild =
        variant1 && hasSupply && !(lineEnds[line] & opponentKeeps(ctx, line));
      const pairs = [
        [ha >= 2, a, a],
        [ha && hb, a, b],
        [hb >= 2, b, b],
      ];
      for (const [ok, c1, c2] of pairs) {
        if (!ok) continue;
        out.push(remove(line, c1, c2, false));
        if (rebuild) out.push(remove(line, c1, c2, true));
      }
    }
    for (const island of held) out.push(`discard ${islands[island]}`);
    if (phase === "final") {
      out.push("end");
      return out;
    }
    if (hand.reduce((s, n) => s + n, 0) < handLimit) {
      const seen = new Set();
      for (const card of ctx.faceUp) {
        if (!seen.has(card)) {
          seen.add(card);
          out.push(`take ${islands[card]}`);
        }
      }
      if (ctx.pileSize) out.push("draw");
    }
    if (!ctx.opponentAbstained) out.push("abstain");
    return out;
  }

  // Why the rules refuse an action now, as shared/legality.py's refusal(): null when it is
  // legal, else {code, params} (the codes web/code-words.mjs's REFUSALS turn into sentences).
  // The action is {verb, card, line, cards: [c1, c2], rebuild} with island and line indices, so
  // that a card clicked with a line not from its island (no notation says it) has its reason too.
  function refusal(ctx, action) {
    const no = (code, params = {}) => ({ code, params });
    const phase = ctx.phase;
    const verb = action.verb;
    if (phase === "over") return no("game_over");
    if (verb === "undo") {
      if (phase === "handicap") return no("undo_handicap");
      return ctx.undoable ? null : no("nothing_to_undo");
    }
    const me = ctx.bridges[ctx.seat];
    const opp = ctx.bridges[1 - ctx.seat];
    const hand = ctx.hand;
    if (phase === "handicap") {
      if (verb !== "handicap") return no("handicap_first", { seat: ctx.seat === 0 ? "white" : "black", n: String(ctx.handicapLeft) });
      return ((me | opp) >> action.line) & 1 ? no("line_taken", { line: lineNames[action.line] }) : null;
    }
    if (verb === "handicap") return no("handicap_over");
    if (verb === "place") {
      const { card, line } = action;
      const name = lineNames[line];
      if (!lines[line].includes(card)) return no("card_not_on_line", { card: islands[card], line: name });
      if (!hand[card]) return no("no_such_card", { card: islands[card] });
      if (((me | opp) >> line) & 1) return no("line_taken", { line: name });
      if (popcount(me) >= perPlayer) return no("no_bridges_left");
      if (ctx.options.variant1 && lineEnds[line] & ctx.tokens[1 - ctx.seat]) return no("variant1_controlled", { line: name });
      return null;
    }
    if (verb === "remove") {
      const { line } = action;
      const [c1, c2] = [...action.cards].sort((a, b) => a - b);
      const name = lineNames[line];
      if (!lines[line].includes(c1) || !lines[line].includes(c2)) return no("remove_cards", { line: name });
      if (!((opp >> line) & 1)) return no("no_opponent_bridge", { line: name });
      if (hand[c1] < (c1 === c2 ? 2 : 1) || !hand[c2]) return no("cards_not_held", { cards: `${islands[c1]}+${islands[c2]}` });
      if (action.rebuild) {
        if (!ctx.options.variant1) return no("rebuild_variant1");
        if (popcount(me) >= perPlayer) return no("no_bridges_left");
        if (lineEnds[line] & opponentKeeps(ctx, line)) return no("variant1_stays", { line: name });
      }
      return null;
    }
    if (verb === "discard") return hand[action.card] ? null : no("no_such_card", { card: islands[action.card] });
    if (verb === "end") return phase === "final" ? null : no("end_not_final");
    if (phase === "final") return no("final_no_draw");
    if (verb === "abstain") return ctx.opponentAbstained ? no("abstain_twice") : null;
    if (verb === "take" || verb === "draw") {
      if (hand.reduce((s, n) => s + n, 0) >= handLimit) return no(ctx.opponentAbstained ? "hand_full_draw" : "hand_full");
      if (verb === "take") return ctx.faceUp.includes(action.card) ? null : no("not_face_up", { card: islands[action.card] });
      return ctx.pileSize ? null : no("pile_empty");
    }
    return no("not_an_action", { action: String(verb) });
  }

  return { islands, lines, lineNames, lineIndex, index, contextFromView, legalActions, refusal, handLimit };
}

// What an action string is about, for the page's choices: its verb, the line it names (an
// index) and the cards it plays.
export function parseAction(rules, text) {
  const words = text.split(" ");
  const verb = words[0];
  if (verb === "place") {
    const [card, other] = words[1].split("-");
    const a = rules.index.get(card);
    const b = rules.index.get(other);
    const name = a < b ? `${card}-${other}` : `${other}-${card}`;
    return { verb, line: rules.lineIndex.get(name), cards: [card] };
  }
  if (verb === "remove") {
    return {
      verb,
      line: rules.lineIndex.get(words[1]),
      cards: words[2].split("+"),
      rebuild: words[3] === "rebuild",
    };
  }
  if (verb === "handicap") return { verb, line: rules.lineIndex.get(words[1]), cards: [] };
  if (verb === "discard" || verb === "take") return { verb, line: null, cards: [words[1]] };
  return { verb, line: null, cards: [] };
}
