import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { createOnePortServer } from "./one-port.js";

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /**
   * Graceful stop (CONVENTIONS.md, Lifecycle): stop accepting connections, let every
   * request already received finish (one whose body is still arriving included),
   * then close every connection. Requests still running after `graceMs` are cut.
   */
  close(graceMs?: number): Promise<void>;
}

/** CONVENTIONS.md: headers within 60 s, a whole request within 5 min. */
export const TIMEOUTS = { headersMs: 60_000, requestMs: 5 * 60_000 };

/** Serves the handler on one port, HTTP/1.1 and cleartext HTTP/2 alike. */
export async function startHttpServer(
  handler: (req: NodeRequest, res: NodeResponse) => void,
  options: { port: number; host: string; timeouts?: typeof TIMEOUTS },
): Promise<RunningServer> {
  const timeouts = options.timeouts ?? TIMEOUTS;
  let inFlight = 0;
  let closing = false;
  const counted = (req: NodeRequest, res: NodeResponse) => {
    inFlight++;
    res.on("close", () => inFlight--);
    // Node enforces requestTimeout on HTTP/1.1 only: an HTTP/2 stream whose body has
    // not arrived in time is cancelled, costing its caller that stream alone.
    if (req.httpVersionMajor === 2) {
      const stream = (req as http2.Http2ServerRequest).stream;
      const timer = setTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL), timeouts.requestMs);
      const done = () => clearTimeout(timer);
      req.once("end", done);
      res.once("close", done);
    }
    // While draining, HTTP/1.1 keep-alive connections close after their answer.
    if (closing && req.httpVersionMajor === 1) res.setHeader("connection", "close");
    handler(req, res);
  };

  const http1 = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node checks both limits on this interval (30 s by default): keep it a fraction of them.
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, timeouts.headersMs / 4)),
    },
    counted,
  );
  const http2Server = http2.createServer({}, counted);
  const sessions = new Set<http2.Http2Session>();
  http2Server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    // An HTTP/2 connection silent for as long as headers may take is closed.
    session.setTimeout(timeouts.headersMs, () => session.destroy());
  });
  const sockets = new Set<Socket>();
  const listener = createOnePortServer({ http1, http2: http2Server, firstBytesTimeoutMs: timeouts.headersMs });
  listener.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host, () => resolve());
  });
  // These servers never listen themselves; without 'listening' Node enforces no
  // headersTimeout/requestTimeout and closeIdleConnections does nothing (NOTES.md).
  http1.emit("listening");
  http2Server.emit("listening");

  const { port } = listener.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${port}`,
    port,
    async close(graceMs = 9_000) {
      closing = true;
      const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const session of sessions) session.close(); // GOAWAY: open streams may finish
      http1.closeIdleConnections();
      const deadline = Date.now() + graceMs;
      while (inFlight > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        http1.closeIdleConnections();
      }
      for (const socket of sockets) socket.destroy();
      for (const session of sessions) session.destroy();
      await stopped;
    },
  };
}
