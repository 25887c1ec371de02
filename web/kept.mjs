// What the tab keeps between loads: each table's seat token in this tab's session storage only
// (never a URL or a log), and the player's name in the local storage (a preference, not a secret).

const seatKey = (id) => `kahuna.seat.${id}`;
const NAME_KEY = "kahuna.name";

export function savedSeat(id) {
  try {
    const raw = sessionStorage.getItem(seatKey(id));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveSeat(id, seat, token) {
  try {
    sessionStorage.setItem(seatKey(id), JSON.stringify({ seat, token }));
  } catch {
    // no session storage: the seat lasts as long as the connection
  }
}

export function forgetSeat(id) {
  try {
    sessionStorage.removeItem(seatKey(id));
  } catch {
    // nothing kept
  }
}

// The name this browser plays under: the one chosen, or the guest name drawn on its first visit
// and kept, so that a reload or a second tab is the same guest as the seat it holds.
export function preferredName() {
  let name = null;
  try {
    name = localStorage.getItem(NAME_KEY);
  } catch {
    name = null;
  }
  return name || guestName();
}

// A new guest name, kept as the browser's name (the server refused the one it had).
export function guestName() {
  const name = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
  rememberName(name);
  return name;
}

export function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // kept for this page only
  }
}
