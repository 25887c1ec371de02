// What the page knows: the connection, the player's name, the lobby, each table it has seen and
// which one is on the screen. The messages change it, the screens draw it.

export const app = {
  board: null,
  rules: null,
  conn: null,
  name: "",
  welcome: null,
  lobby: [],
  tables: new Map(), // table id -> what the page knows of it
  place: { page: "lobby", id: null }, // where the page is (routes.mjs): lobby, table, player, game, learn, rules
  current: null, // the table shown (null: the page is not a table's)
  selection: null, // {line} or {card}: what the player picked on the board or in the hand
  notice: "",
  confirmResign: false,
  status: "connecting",
};

// What changes the state asks for a new drawing through here, so that it need not import the
// screens that draw it (they import it): main.mjs hands the drawing over at the start.
let drawing = () => {};

export function drawWith(draw) {
  drawing = draw;
}

export function render() {
  drawing();
}

export function send(type, fields) {
  return app.conn.send(type, fields);
}

// What the page knows of a table, made empty the first time the table is named.
export function table(id) {
  let found = app.tables.get(id);
  if (!found) {
    found = { id, role: null, version: -1, view: null, players: null, status: "waiting" };
    found.chat = [];
    found.log = [];
    found.recent = new Set();
    found.pending = false;
    found.closed = null;
    found.receivedAt = performance.now();
    app.tables.set(id, found);
  }
  return found;
}

export function shown() {
  return app.current ? app.tables.get(app.current) || null : null;
}

export function publicOf(known) {
  if (!known || !known.view) return null;
  return known.role === "spectator" ? known.view : known.view.public;
}

export function tableOf(known) {
  // (a seat's view and a spectator's both have it at the top: a spectator's view is the public
  // part, with `table` in it)
  return (known && known.view && known.view.table) || {};
}
