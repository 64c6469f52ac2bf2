import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { followConnections } from "./connection-drain.js";
import { newConnectionsSignal } from "./new-connections.js";
import { requestArrivals } from "./new-requests.js";
import { createOnePortServer } from "./one-port.js";
import { deferTurnsWhile } from "../load-control/turns.js";

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /**
   * Graceful stop (CONVENTIONS.md, Lifecycle). For `drainMs` the server still accepts
   * and answers, each connection told to close after its answer (`Connection: close`
   * on HTTP/1.1, GOAWAY on HTTP/2): a connection already in the kernel's listen backlog
   * has reached the host, and closing the listener would reset it. Then it stops
   * accepting, lets every request already received finish (one whose body is still
   * arriving included), and closes every connection. Requests still running
   * `graceMs` after the listener closed are cut.
   */
  close(graceMs?: number, drainMs?: number): Promise<void>;
}

/**
 * CONVENTIONS.md: headers within 60 s, a whole request within 5 min. An idle HTTP/1.1
 * keep-alive connection is kept 65 s, longer than any Retry-After the server gives
 * (admission-gate.ts) and than a balancer's usual 60 s idle limit: Node's own 5 s (6 s
 * with its margin) closed a connection just as a caller told "Retry-After: 6" sent its
 * retry on it, and the retry ended in a connection error, not an answer.
 */
export const TIMEOUTS = { headersMs: 60_000, requestMs: 5 * 60_000, keepAliveMs: 65_000 };

/** Serves the handler on one port, HTTP/1.1 and cleartext HTTP/2 alike. */
export async function startHttpServer(
  handler: (req: NodeRequest, res: NodeResponse) => void,
  options: { port: number; host: string; timeouts?: Partial<typeof TIMEOUTS> },
): Promise<RunningServer> {
  const timeouts = { ...TIMEOUTS, ...options.timeouts };
  const requests = requestArrivals();
  const counted = (req: NodeRequest, res: NodeResponse) => {
    requests.arrived();
    // Node enforces requestTimeout on HTTP/1.1 only: an HTTP/2 stream whose body has
    // not arrived in time is cancelled, costing its caller that stream alone.
    if (req.httpVersionMajor === 2) {
      const stream = (req as http2.Http2ServerRequest).stream;
      const timer = setTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL), timeouts.requestMs);
      const done = () => clearTimeout(timer);
      req.once("end", done);
      res.once("close", done);
    } else {
      connections.requestStarted(req as http.IncomingMessage, res as http.ServerResponse);
    }
    handler(req, res);
  };

  const http1 = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // Node checks both limits on this interval (30 s by default): keep it a fraction of them.
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, timeouts.headersMs / 4)),
    },
    counted,
  );
  const http2Server = http2.createServer({}, counted);
  http2Server.on("session", (session) => {
    // An HTTP/2 connection silent for as long as headers may take is closed.
    session.setTimeout(timeouts.headersMs, () => session.destroy());
  });
  const listener = createOnePortServer({ http1, http2: http2Server, firstBytesTimeoutMs: timeouts.headersMs });
  const connections = followConnections(listener, http1, http2Server);
  const quietBeforeClose = newConnectionsSignal(listener);

  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host, () => resolve());
  });
  const stopDeferringTurns = [
    deferTurnsWhile(newConnectionsSignal(listener)),
    deferTurnsWhile(requests.arrivedSinceAsked),
  ];
  // These servers never listen themselves; without 'listening' Node enforces no
  // headersTimeout/requestTimeout and closeIdleConnections does nothing (NOTES.md).
  http1.emit("listening");
  http2Server.emit("listening");

  const { port } = listener.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${port}`,
    port,
    async close(graceMs = 9_000, drainMs = 0) {
      connections.startDraining();
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
      for (const drainEnd = Date.now() + drainMs; Date.now() < drainEnd;) {
        connections.settle();
        await pause(Math.min(25, drainEnd - Date.now()));
      }
      // libuv accepts one connection per loop iteration: the listener closes after an
      // iteration that accepted none, when the kernel holds no connection it would reset.
      for (const quietEnd = Date.now() + QUIET_WAIT_MS; Date.now() < quietEnd;) {
        await new Promise((resolve) => setImmediate(resolve));
        if (!quietBeforeClose()) break;
      }
      const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const stop of stopDeferringTurns) stop();
      for (const deadline = Date.now() + graceMs; connections.settle() && Date.now() < deadline;) await pause(25);
      connections.destroyAll();
      await stopped;
    },
  };
}

/** How long closing waits for an iteration of the event loop that accepts no connection. */
const QUIET_WAIT_MS = 250;
