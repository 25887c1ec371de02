// What the tab keeps between loads: each table's seat token in this tab's session storage only
// (never a URL or a log), and the player's name in the local storage (a preference, not a secret).

const seatKey = (id) => `kahuna.seat.${id}`;

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

export function preferredName() {
  let name = null;
  try {
    name = localStorage.getItem("kahuna.name");
  } catch {
    name = null;
  }
  return name || guestName();
}

export function guestName() {
  return `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
}

export function rememberName(name) {
  try {
    localStorage.setItem("kahuna.name", name);
  } catch {
    // kept for this page only
  }
}
