import { createServer, type Server, type Socket } from "node:net";

// Every HTTP/2 connection with prior knowledge opens with this preface (RFC 9113, 3.4).
const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

export interface ConnectionTargets {
  /** Takes plain HTTP/1.1 connections: REST, Connect and gRPC-Web. */
  http1: { emit(event: "connection", socket: Socket): boolean };
  /** Takes cleartext HTTP/2 connections: gRPC, Connect and REST over h2c. */
  http2: { emit(event: "connection", socket: Socket): boolean };
  /** How long a connection may stay silent before its first bytes. */
  firstBytesTimeoutMs: number;
}

/**
 * One listening socket for every protocol. Node's http2 server does not fall back
 * to HTTP/1.1 in cleartext, so each new connection is peeked at: bytes that begin
 * the HTTP/2 preface go to the HTTP/2 server, anything else to the HTTP/1.1 server
 * (which answers 400 to bytes that are not HTTP). A bad client costs one connection.
 */
export function createOnePortServer(targets: ConnectionTargets): Server {
  // Nagle's algorithm off, as node:http's own listener does (its noDelay default): a
  // socket accepted here is handed on, so that default never applies to it, and an
  // answer written in pieces would wait for the caller's acknowledgement of the first.
  return createServer({ noDelay: true }, (socket) => {
    let seen = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), targets.firstBytesTimeoutMs);
    const onError = () => socket.destroy();
    socket.on("error", onError);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const compared = Math.min(seen.length, H2_PREFACE.length);
      const prefaceSoFar = seen.subarray(0, compared).equals(H2_PREFACE.subarray(0, compared));
      if (prefaceSoFar && seen.length < H2_PREFACE.length) return; // wait for the rest of the preface
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("error", onError);
      socket.pause();
      socket.unshift(seen);
      (prefaceSoFar ? targets.http2 : targets.http1).emit("connection", socket);
      if (!prefaceSoFar) socket.resume();
    };
    socket.on("data", onData);
    socket.once("close", () => clearTimeout(timer));
  });
}
