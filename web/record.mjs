// A game record (docs/records.md), read and replayed for the replay at /game/ID: the game after
// every action, as shared/game.py's Game.from_log rebuilds it from the same log (the deal, each
// action, the recorded shuffles, the ending). The server checked the record when it wrote it;
// this only follows it. tests/web/test_replay.py holds each step to the Python engine's game
// after the same prefix of the log, inside Chromium, over whole games.

import { popcount } from "./legality.mjs";

const SEATS = ["white", "black"];
const DEAL_SIZE = 3;
const FACE_UP_SIZE = 3;
const ROUNDS = 3;
const TOKENS_PER_PLAYER = 10; // shared/board.py: the tokens each player has (R8)

export class RecordProblem extends Error {}

// The board's names and masks, from /board.json.
function boardOf(board) {
  const islands = board.islands.map((i) => i.name);
  const index = new Map(islands.map((name, i) => [name, i]));
  const lineOf = new Map();
  board.lines.forEach((line, k) => {
    lineOf.set(`${line.a}-${line.b}`, k);
    lineOf.set(`${line.b}-${line.a}`, k);
  });
  const islandMask = islands.map((_, i) =>
    board.lines.reduce((mask, l, k) => (l.a === i || l.b === i ? mask | (1 << k) : mask), 0),
  );
  return {
    islands,
    index,
    lines: board.lines.map((l) => [l.a, l.b]),
    lineNames: board.lines.map((l) => l.name),
    lineOf,
    islandMask,
    needed: board.islands.map((i) => i.needed),
  };
}

function island(b, word) {
  const found = b.index.get(String(word).toUpperCase());
  if (found === undefined) throw new RecordProblem(`not an island: ${word}`);
  return found;
}

// A line written "A-B" (either way round): [line, first island named].
function line(b, word) {
  const [x, y, ...rest] = String(word).split("-");
  if (y === undefined || rest.length) throw new RecordProblem(`not a line: ${word}`);
  const first = island(b, x);
  const k = b.lineOf.get(`${first}-${island(b, y)}`);
  if (k === undefined) throw new RecordProblem(`not a line: ${word}`);
  return [k, first];
}

// An action of the notation (shared/actions.py), as the replay applies it.
export function parseAction(b, text) {
  const words = text.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  switch (verb) {
    case "place": {
      const [k, card] = line(b, words[1]);
      return { verb, line: k, card };
    }
    case "remove": {
      const [k] = line(b, words[1]);
      const cards = String(words[2] || "").split("+").map((w) => island(b, w));
      if (cards.length !== 2) throw new RecordProblem(`two cards remove a bridge: ${text}`);
      return { verb, line: k, cards, rebuild: (words[3] || "").toLowerCase() === "rebuild" };
    }
    case "handicap":
      return { verb, line: line(b, words[1])[0] };
    case "discard":
    case "take":
      return { verb, card: island(b, words[1]) };
    case "undo":
      return { verb, wholeTurn: (words[1] || "").toLowerCase() === "turn" };
    case "draw":
    case "abstain":
    case "end":
      return { verb };
    default:
      throw new RecordProblem(`not an action: ${text}`);
  }
}

const ENDINGS = [
  [/^(white|black) resigns$/, "resigned"],
  [/^draw agreed$/, "agreed"],
  [/^game abandoned$/, "abandoned"],
  [/^(white|black) loses on time$/, "time"],
  [/^(white|black) forfeits$/, "forfeit"],
];

// The endings that name no seat: a draw agreed, a game a moderator closed.
const SEATLESS = ["agreed", "abandoned"];

// The record's statements: its options, its start (a deal, or a set-up position) and its log.
export function readRecord(text, board) {
  const b = boardOf(board);
  const record = {
    options: { variant1: false, variant2: false, handicap_seat: null, handicap_bridges: 0 },
    first: "white",
    deal: null,
    position: null,
    log: [],
  };
  let inPosition = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const words = line.split(/\s+/);
    const key = words[0].toLowerCase();
    const rest = words.slice(1);
    if (inPosition) {
      readPositionLine(b, record.position, key, rest);
      if (key === "end") inPosition = false;
      continue;
    }
    const lower = line.toLowerCase();
    const ending = ENDINGS.find(([pattern]) => pattern.test(lower));
    if (key === "kahuna-record") continue;
    if (key === "variant1" || key === "variant2") record.options[key] = rest[0].toLowerCase() === "yes";
    else if (key === "handicap") {
      if (rest[0].toLowerCase() !== "none") {
        record.options.handicap_seat = rest[0].toLowerCase();
        record.options.handicap_bridges = Number(rest[1]);
      }
    } else if (key === "first") record.first = rest[0].toLowerCase();
    else if (key === "deal") record.deal = rest.map((w) => island(b, w));
    else if (key === "position") {
      inPosition = true;
      record.position = emptyPosition();
    } else if (key === "shuffle") record.log.push({ type: "chance", order: rest.map((w) => island(b, w)) });
    else if (ending) {
      const seat = SEATLESS.includes(ending[1]) ? null : words[0].toLowerCase();
      record.log.push({ type: "ending", kind: ending[1], seat });
    } else if (SEATS.includes(key)) {
      const text = rest.join(" ");
      record.log.push({ type: "move", seat: key, text, action: parseAction(b, text) });
    } else throw new RecordProblem(`not a statement of a record: ${line}`);
  }
  if (!record.deal && !record.position) throw new RecordProblem("the record has no deal and no position");
  return record;
}

function emptyPosition() {
  return {
    bridges: [0, 0],
    hands: [[], []],
    open: [[], []],
    faceUp: [],
    pile: [],
    played: [],
    faceDown: [],
    round: 1,
    roundPoints: [],
    toMove: "white",
    opponentAbstained: false,
    finalTurnsLeft: 0,
  };
}

function readPositionLine(b, position, key, rest) {
  const seatOf = () => SEATS.indexOf(rest[0].toLowerCase());
  const cards = (words) => words.map((w) => island(b, w));
  if (key === "bridges") position.bridges[seatOf()] = rest.slice(1).reduce((m, w) => m | (1 << line(b, w)[0]), 0);
  else if (key === "hand") position.hands[seatOf()] = cards(rest.slice(1));
  else if (key === "open") position.open[seatOf()] = cards(rest.slice(1));
  else if (key === "face-up") position.faceUp = cards(rest);
  else if (key === "pile") position.pile = cards(rest);
  else if (key === "played") position.played = cards(rest);
  else if (key === "face-down") position.faceDown = cards(rest);
  else if (key === "round") position.round = Number(rest[0]);
  else if (key === "points") position.roundPoints = rest.map((p) => p.split(":").map(Number));
  else if (key === "to-move") position.toMove = rest[0].toLowerCase();
  else if (key === "opponent-abstained") position.opponentAbstained = rest[0].toLowerCase() === "yes";
  else if (key === "final-turns-left") position.finalTurnsLeft = Number(rest[0]);
}

// ----- the game, step by step (shared/game.py, shared/control.py, shared/scoring.py) ----------

function majorityMask(b, bridges) {
  let mask = 0;
  b.islands.forEach((_, i) => {
    if (popcount(bridges & b.islandMask[i]) >= b.needed[i]) mask |= 1 << i;
  });
  return mask;
}

function tokensKept(b, bridges, tokens) {
  let kept = tokens;
  b.islands.forEach((_, i) => {
    if ((tokens >> i) & 1 && popcount(bridges & b.islandMask[i]) < b.needed[i]) kept &= ~(1 << i);
  });
  return kept;
}

function placeBridge(b, g, seat, k) {
  const opp = 1 - seat;
  g.bridges[seat] |= 1 << k;
  let gained = 0;
  let doomed = 0;
  for (const i of b.lines[k]) {
    if (!((g.tokens[seat] >> i) & 1) && popcount(g.bridges[seat] & b.islandMask[i]) >= b.needed[i]) {
      gained |= 1 << i;
      doomed |= g.bridges[opp] & b.islandMask[i];
    }
  }
  if (doomed) {
    g.bridges[opp] &= ~doomed;
    g.tokens[opp] = tokensKept(b, g.bridges[opp], g.tokens[opp]);
  }
  g.tokens[seat] |= gained;
}

const tokenCounts = (g) => g.tokens.map((t) => Math.min(popcount(t), TOKENS_PER_PLAYER));

function finish(g, winner, kind) {
  g.phase = "over";
  g.result = { winner, kind };
  g.plays = [];
}

function copy(g) {
  return {
    ...g,
    bridges: [...g.bridges],
    tokens: [...g.tokens],
    hands: g.hands.map((h) => [...h]),
    faceUp: [...g.faceUp],
    pile: [...g.pile],
    played: [...g.played],
    faceDown: [...g.faceDown],
    roundPoints: g.roundPoints.map((p) => [...p]),
    plays: [...g.plays],
  };
}

function startGame(b, record) {
  const g = {
    bridges: [0, 0],
    tokens: [0, 0],
    hands: [new Array(b.islands.length).fill(0), new Array(b.islands.length).fill(0)],
    faceUp: [],
    pile: [],
    played: [],
    faceDown: [],
    round: 1,
    roundPoints: [],
    toMove: record.first,
    phase: "play",
    opponentAbstained: false,
    finalTurnsLeft: 0,
    handicapLeft: 0,
    result: null,
    plays: [], // what an undo goes back to: the state before each play of this turn
  };
  const p = record.position;
  if (p) {
    g.bridges = [...p.bridges];
    g.tokens = p.bridges.map((m) => majorityMask(b, m));
    [0, 1].forEach((s) => [...p.hands[s], ...p.open[s]].forEach((c) => (g.hands[s][c] += 1)));
    Object.assign(g, {
      faceUp: [...p.faceUp],
      pile: [...p.pile],
      played: [...p.played],
      faceDown: [...p.faceDown],
      round: p.round,
      roundPoints: p.roundPoints.map((x) => [...x]),
      toMove: p.toMove,
      opponentAbstained: p.opponentAbstained,
      finalTurnsLeft: p.finalTurnsLeft,
      phase: p.finalTurnsLeft ? "final" : "play",
    });
    return g;
  }
  const deck = record.deal;
  [0, 1].forEach((s) => deck.slice(s * DEAL_SIZE, (s + 1) * DEAL_SIZE).forEach((c) => (g.hands[s][c] += 1)));
  g.faceUp = deck.slice(2 * DEAL_SIZE, 2 * DEAL_SIZE + FACE_UP_SIZE);
  g.pile = deck.slice(2 * DEAL_SIZE + FACE_UP_SIZE);
  if (record.options.handicap_seat) {
    g.phase = "handicap";
    g.handicapLeft = record.options.handicap_bridges;
    g.toMove = record.options.handicap_seat;
  }
  return g;
}

// The game after `move` (a copy: the steps keep every state). `nextChance` gives the recorded
// shuffle the move's round end needs.
function applyMove(b, before, move, nextChance) {
  const g = copy(before);
  const seat = SEATS.indexOf(g.toMove);
  const a = move.action;
  const state = () => ({ bridges: [...g.bridges], tokens: [...g.tokens], hand: [...g.hands[seat]], played: g.played.length, faceDown: g.faceDown.length });
  if (["place", "remove", "discard"].includes(a.verb)) g.plays.push(state());
  if (a.verb === "place") {
    g.hands[seat][a.card] -= 1;
    g.played.push(a.card);
    placeBridge(b, g, seat, a.line);
  } else if (a.verb === "remove") {
    for (const card of a.cards) {
      g.hands[seat][card] -= 1;
      g.played.push(card);
    }
    g.bridges[1 - seat] &= ~(1 << a.line);
    g.tokens[1 - seat] = tokensKept(b, g.bridges[1 - seat], g.tokens[1 - seat]);
    if (a.rebuild) placeBridge(b, g, seat, a.line);
  } else if (a.verb === "discard") {
    g.hands[seat][a.card] -= 1;
    g.faceDown.push(a.card);
  } else if (a.verb === "handicap") {
    placeBridge(b, g, seat, a.line);
    g.handicapLeft -= 1;
    if (!g.handicapLeft) {
      g.phase = "play";
      g.toMove = g.first;
      g.plays = [];
    }
  } else if (a.verb === "take") {
    g.faceUp.splice(g.faceUp.indexOf(a.card), 1);
    if (g.pile.length) g.faceUp.push(g.pile.shift());
    g.hands[seat][a.card] += 1;
    endTurn(b, g, seat, false, nextChance);
  } else if (a.verb === "draw") {
    g.hands[seat][g.pile.shift()] += 1;
    endTurn(b, g, seat, false, nextChance);
  } else if (a.verb === "abstain") {
    endTurn(b, g, seat, true, nextChance);
  } else if (a.verb === "end") {
    endTurn(b, g, seat, false, nextChance);
  } else if (a.verb === "undo") {
    for (;;) {
      const back = g.plays.pop();
      g.bridges = back.bridges;
      g.tokens = back.tokens;
      g.hands[seat] = back.hand;
      g.played.length = back.played;
      g.faceDown.length = back.faceDown;
      if (!a.wholeTurn || !g.plays.length) break;
    }
  }
  if (g.phase !== "over" && g.round >= 2 && !(g.bridges[0] && g.bridges[1])) {
    const empty = [0, 1].filter((s) => !g.bridges[s]);
    finish(g, empty.length === 2 ? null : SEATS[1 - empty[0]], "no_bridges");
  }
  return g;
}

function endTurn(b, g, seat, abstained, nextChance) {
  g.opponentAbstained = abstained;
  g.plays = [];
  if (g.phase === "final") {
    g.finalTurnsLeft -= 1;
    if (!g.finalTurnsLeft) {
      finalScoring(g);
      return;
    }
  } else if (!g.pile.length && !g.faceUp.length) {
    if (g.round < ROUNDS) {
      const [white, black] = tokenCounts(g);
      const r = g.round;
      g.roundPoints.push(white > black ? [r, 0] : black > white ? [0, r] : [0, 0]);
      const order = nextChance();
      g.played = [];
      g.faceDown = [];
      g.faceUp = order.slice(0, FACE_UP_SIZE);
      g.pile = order.slice(FACE_UP_SIZE);
      g.round += 1;
    } else {
      g.phase = "final";
      g.finalTurnsLeft = 2;
    }
  }
  g.toMove = SEATS[1 - seat];
}

function finalScoring(g) {
  const [white, black] = tokenCounts(g);
  const diff = white - black;
  const points = diff > 0 ? [diff, 0] : [0, -diff];
  g.roundPoints.push(points);
  const scores = scoresOf(g);
  if (scores[0] !== scores[1]) finish(g, scores[0] > scores[1] ? "white" : "black", "points");
  else if (points[0] !== points[1]) finish(g, points[0] > points[1] ? "white" : "black", "final");
  else {
    const [w, k] = g.bridges.map(popcount);
    if (w !== k) finish(g, w > k ? "white" : "black", "bridges");
    else finish(g, null, "tie");
  }
}

export const scoresOf = (g) => [0, 1].map((s) => g.roundPoints.reduce((sum, p) => sum + p[s], 0));

// Every step of the game: the start, then the game after each move and the ending, each with
// the move (or ending) that made it and the number of the turn it belongs to, as the analysis
// counts turns (shared/analysis.py's turns(): a seat's moves until the other is to move or the
// game is over; null for an ending that came between turns). A step's `game` holds masks and
// counts; publicOf turns it into the view the board draws.
export function replaySteps(record, board) {
  const b = boardOf(board);
  let game = startGame(b, record);
  game.first = record.first;
  const steps = [{ game, move: null, turn: null }];
  const log = record.log;
  let closed = 0; // the turns complete so far
  let mover = null; // the seat of the turn under way
  for (let i = 0; i < log.length; i += 1) {
    const entry = log[i];
    if (entry.type === "chance") throw new RecordProblem("a shuffle where none happens");
    if (game.phase === "over") throw new RecordProblem("a move after the game's end");
    if (entry.type === "ending") {
      game = copy(game);
      finish(game, SEATLESS.includes(entry.kind) ? null : SEATS[1 - SEATS.indexOf(entry.seat)], entry.kind);
      steps.push({ game, move: entry, turn: mover ? closed + 1 : null });
      if (mover) closed += 1;
      mover = null;
      continue;
    }
    if (entry.seat !== game.toMove) throw new RecordProblem(`${entry.seat} moves out of turn`);
    const nextChance = () => {
      const chance = log[i + 1];
      if (!chance || chance.type !== "chance") throw new RecordProblem("a round ends without its shuffle");
      i += 1;
      return chance.order;
    };
    mover = mover || entry.seat;
    game = applyMove(b, game, entry, nextChance);
    steps.push({ game, move: entry, turn: closed + 1 });
    if (game.phase === "over" || game.toMove !== mover) {
      closed += 1;
      mover = null;
    }
  }
  return steps;
}

// A step's game as the page's views have it (docs/protocol.md's public view, the names spelled
// out), with both hands: the game is over, nothing is hidden any more.
export function publicOf(step, board) {
  const b = boardOf(board);
  const g = step.game;
  const lines = (mask) => b.lineNames.filter((_, k) => (mask >> k) & 1);
  const islands = (mask) => b.islands.filter((_, i) => (mask >> i) & 1);
  const cards = (counts) => counts.flatMap((n, i) => new Array(n).fill(b.islands[i]));
  return {
    phase: g.phase,
    to_move: g.toMove,
    round: g.round,
    round_points: g.roundPoints,
    scores: scoresOf(g),
    bridges: { white: lines(g.bridges[0]), black: lines(g.bridges[1]) },
    tokens: { white: islands(g.tokens[0]), black: islands(g.tokens[1]) },
    hands: { white: cards(g.hands[0]), black: cards(g.hands[1]) },
    face_up: g.faceUp.map((c) => b.islands[c]),
    pile_size: g.pile.length,
    played: g.played.map((c) => b.islands[c]),
    face_down_count: g.faceDown.length,
    result: g.result,
  };
}
