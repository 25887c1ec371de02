// The connection to the server: the same WebSocket, protocol and msgpack frames as the terminal
// client's (docs/protocol.md), the newest protocol version. It reconnects by itself after a
// drop; the page then says hello again and takes its seat back (see main.mjs).

import { decode, encode } from "./vendor/msgpack.mjs";

export const PROTOCOL_VERSION = 4;

export class Connection {
  constructor({ onOpen, onMessage, onStatus }) {
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.tries = 0;
    this.stopped = false;
    this.sent = 0;
    this.received = [];
    this.epoch = 0; // counts the connections opened: what a table's state came on
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/`;
  }

  open() {
    const ws = new WebSocket(this.url());
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.onStatus("connecting");
    ws.addEventListener("open", () => {
      this.tries = 0;
      this.epoch += 1;
      this.onStatus("connected");
      this.onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (!(event.data instanceof ArrayBuffer)) return; // the server sends binary frames only
      let message;
      try {
        message = decode(new Uint8Array(event.data));
      } catch {
        return;
      }
      if (message && typeof message === "object" && typeof message.type === "string") {
        this.received.push(message.type);
        this.onMessage(message);
      }
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.stopped) return;
      this.ws = null;
      this.tries += 1;
      const wait = Math.min(8, 2 ** Math.min(this.tries, 5)) / 2;
      this.onStatus("reconnecting", wait);
      setTimeout(() => this.open(), wait * 1000);
    });
  }

  // Reconnect at once (a new name needs a new hello).
  restart() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.open();
  }

  get ready() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(type, fields = {}) {
    if (!this.ready) return false;
    this.ws.send(encode({ type, ...fields }));
    this.sent += 1;
    return true;
  }
}
