// One WebSocket to the server (protocol version 1, docs/protocol.md), reconnecting by itself.
// Replies are matched to requests by "id"; an accepted action comes back as a "state" whose
// "ack" echoes the id, a refused one as an "error" with that id.

export class Connection {
  constructor({ onMessage, onStatus, onOpen }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onOpen = onOpen;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map(); // id -> {resolve, reject, timer}
    this.retry = 0;
    this.crowded = false; // the server said too_many_connections: retry slowly
    this.closedByUs = false;
    this.status = "connecting";
    this.pingTimer = null;
    this.skew = 0; // server time - local time, in ms (from pong)
    // The skew is taken from the pong of the quickest ping on this socket, at the middle of its
    // round trip: the server stamps a pong about half-way, and taken at its arrival the server's
    // time read late by the whole trip (a countdown of 2 s said 3 on a busy machine). A slow
    // trip says least about where the middle was, so a quicker one's reading is kept.
    this.pingSent = null; // {id, at} of the ping waiting for its pong
    this.bestTrip = null; // ms: the quickest round trip on this socket
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws`;
  }

  connect() {
    this.closedByUs = false;
    this.setStatus(this.retry ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      // the backoff starts again only at the server's welcome: a server that accepts the
      // socket and then refuses it (too many connections) must not be retried at once
      this.setStatus("online");
      this.startPing();
      if (this.onOpen) this.onOpen();
    });
    ws.addEventListener("message", (ev) => {
      if (ws.dropped) return; // a socket given up on (drop) speaks for nothing any more
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "pong" && typeof msg.time === "number") this.pong(msg);
      if (msg.type === "welcome") {
        this.retry = 0;
        this.crowded = false;
      } else if (msg.type === "error" && msg.code === "too_many_connections") {
        this.crowded = true;
      }
      const key = msg.type === "state" ? msg.ack : msg.id;
      if (key !== undefined && key !== null && this.waiting.has(String(key))) {
        const w = this.waiting.get(String(key));
        this.waiting.delete(String(key));
        clearTimeout(w.timer);
        if (msg.type === "error") w.reject(msg);
        else w.resolve(msg);
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      // dropped, its loss was dealt with then; the requests waiting now are the next socket's
      if (!ws.dropped) this.lost(ws);
    });
  }

  /** The socket is gone: its requests fail, and a new one is tried. */
  lost(ws) {
    this.stopPing();
    for (const [, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject({ type: "error", code: "disconnected", message: "connection lost" });
    }
    this.waiting.clear();
    if (this.ws === ws) this.ws = null;
    if (!this.closedByUs) this.scheduleReconnect();
  }

  /** Give the socket up at once, as lost, when the network is gone (the browser's "offline")
   * or a ping goes unanswered: such a socket can stay open for minutes, the page saying it is
   * online while nothing goes through, and its close event may come only as long after (the
   * closing handshake needs the network too). */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    ws.dropped = true;
    try {
      ws.close();
    } catch {
      /* closing a socket that is still connecting may throw in older browsers */
    }
    this.lost(ws);
  }

  scheduleReconnect() {
    this.setStatus("reconnecting");
    // no network: every attempt would fail (each one an error in the console); the browser's
    // "online" brings the next one (nudge)
    if (navigator.onLine === false) {
      clearTimeout(this.reconnectTimer);
      return;
    }
    const delay = Math.min(this.crowded ? 30000 : 8000, 400 * 2 ** this.retry) + Math.random() * 300;
    this.retry += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect at once (after the page comes back to the foreground or the network returns). */
  nudge() {
    if (!this.ws && !this.closedByUs) {
      clearTimeout(this.reconnectTimer);
      this.connect();
    }
  }

  setStatus(s) {
    this.status = s;
    if (this.onStatus) this.onStatus(s);
  }

  startPing() {
    this.stopPing();
    // a ping left unanswered (send's 15 s) means a dead socket: given up, so the page says it
    // is reconnecting and tries a new one, rather than showing itself online with nothing
    // getting through
    const ws = this.ws;
    this.bestTrip = null;
    const ping = () => {
      this.pingSent = { id: `c${this.nextId}`, at: Date.now() };
      const reply = this.send({ type: "ping" });
      if (reply) reply.catch((e) => { if (e && e.code === "timeout" && this.ws === ws) this.drop(); });
    };
    ping();
    this.pingTimer = setInterval(ping, 20000);
  }

  pong(msg) {
    const arrived = Date.now();
    const sent = this.pingSent && this.pingSent.id === msg.id ? this.pingSent.at : null;
    if (sent === null) {
      if (this.bestTrip === null) this.skew = msg.time - arrived; // better than none
      return;
    }
    this.pingSent = null;
    const trip = Math.max(0, arrived - sent);
    if (this.bestTrip === null || trip <= this.bestTrip) {
      this.bestTrip = trip;
      this.skew = msg.time - (sent + arrived) / 2;
    }
  }

  stopPing() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  get open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a message; with expectReply, return a promise of the reply (or reject with the error). */
  send(msg, expectReply = true) {
    if (!this.open) {
      return expectReply ? Promise.reject({ type: "error", code: "disconnected", message: "not connected" }) : undefined;
    }
    const id = `c${this.nextId++}`;
    const out = { ...msg, id };
    this.ws.send(JSON.stringify(out));
    if (!expectReply) return undefined;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject({ type: "error", code: "timeout", message: "no answer from the server" });
      }, 15000);
      this.waiting.set(id, { resolve, reject, timer });
    });
  }

  /** Server time now, from the local clock corrected by the skew measured with ping. */
  now() {
    return Date.now() + this.skew;
  }
}
