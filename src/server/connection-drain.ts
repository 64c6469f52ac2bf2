import type http from "node:http";
import type http2 from "node:http2";
import type { Server, Socket } from "node:net";

/**
 * Every connection of the port, followed closely enough to close each one at the right
 * moment of a drain: never one whose request is on its way or being answered.
 *
 * A connection the listener has accepted may not have delivered its request yet: the
 * client sent it, but Node has not read it. Closing such a "fresh" connection resets a
 * request its client already sent, so a fresh connection is given time to deliver
 * (FIRST_REQUEST_MS). One that has been answered and is idle can go at once.
 */
export interface ConnectionDrain {
  /** An HTTP/1.1 request began on its socket: call from the request handler. */
  requestStarted(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** From now on every connection closes after its answers (Connection: close, GOAWAY). */
  startDraining(): void;
  /** Closes what can close now; whether any connection still has a request coming or under way. */
  settle(): boolean;
  /** Cuts every connection left. */
  destroyAll(): void;
}

/** How long a connection accepted without a request yet may take to deliver it, once draining. */
const FIRST_REQUEST_MS = 1_000;

interface Http1State {
  acceptedAt: number;
  requests: number;
  open: Set<http.ServerResponse>;
}

interface Http2State {
  acceptedAt: number;
  streams: number;
}

export function followConnections(
  listener: Server,
  http1: http.Server,
  http2Server: http2.Http2Server,
): ConnectionDrain {
  /** Accepted, their first bytes not yet read (one-port.ts tells HTTP/1.1 from HTTP/2 by them). */
  const arriving = new Map<Socket, number>();
  const http1Sockets = new Map<Socket, Http1State>();
  const sessions = new Map<http2.Http2Session, Http2State>();
  let draining = false;

  listener.on("connection", (socket: Socket) => {
    arriving.set(socket, Date.now());
    socket.once("close", () => arriving.delete(socket));
  });
  http1.on("connection", (socket: Socket) => {
    http1Sockets.set(socket, { acceptedAt: arriving.get(socket) ?? Date.now(), requests: 0, open: new Set() });
    arriving.delete(socket);
    socket.once("close", () => http1Sockets.delete(socket));
  });
  http2Server.on("connection", (socket: Socket) => arriving.delete(socket));
  http2Server.on("session", (session) => {
    const state: Http2State = { acceptedAt: Date.now(), streams: 0 };
    sessions.set(session, state);
    session.once("close", () => sessions.delete(session));
    session.on("stream", () => {
      state.streams++;
      // GOAWAY once its first stream is in: sent before, it would refuse the request
      // the client has already sent. The streams in flight still finish.
      if (draining) session.close();
    });
  });

  const fresh = (acceptedAt: number) => Date.now() - acceptedAt < FIRST_REQUEST_MS;
  return {
    requestStarted(req, res) {
      const state = http1Sockets.get(req.socket);
      if (!state) return;
      state.requests++;
      state.open.add(res);
      res.once("close", () => state.open.delete(res));
      if (draining) res.setHeader("connection", "close");
    },
    startDraining() {
      draining = true;
      for (const state of http1Sockets.values()) {
        for (const res of state.open) if (!res.headersSent) res.setHeader("connection", "close");
      }
      // A session that has had a stream gets its GOAWAY now; a fresh one at its first stream.
      for (const [session, state] of sessions) if (state.streams > 0) session.close();
    },
    settle() {
      let waiting = false;
      for (const [socket, acceptedAt] of arriving) {
        if (fresh(acceptedAt)) waiting = true;
        else socket.destroy();
      }
      for (const [socket, state] of http1Sockets) {
        if (state.open.size > 0) waiting = true;
        else if (state.requests > 0)
          socket.end(); // answered and idle: a FIN once its answer is flushed
        else if (fresh(state.acceptedAt)) waiting = true;
        else socket.destroy();
      }
      for (const [session, state] of sessions) {
        // A session with streams closes by itself once they end (its GOAWAY is sent).
        if (state.streams > 0 || fresh(state.acceptedAt)) waiting = true;
        else session.destroy();
      }
      return waiting;
    },
    destroyAll() {
      for (const socket of [...arriving.keys(), ...http1Sockets.keys()]) socket.destroy();
      for (const session of sessions.keys()) session.destroy();
    },
  };
}
