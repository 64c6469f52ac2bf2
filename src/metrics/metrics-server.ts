import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { requestPath } from "../transcoding/request-target.js";
import type { Registry } from "prom-client";

export interface MetricsServer {
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops every connection, a scrape under way included: never waits on one. */
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` in Prometheus's text format on its own port (METRICS_PORT),
 * with no token: that port is for the scraper inside the network, never the API's.
 */
export async function startMetricsServer(
  registry: Registry,
  options: { port: number; host: string; log: Logger },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => void answer(registry, options.log, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // An 'error' with no listener would end the process: the metrics are never worth that.
  server.on("error", (error) => options.log.warn({ err: error }, "metrics server"));
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(
  registry: Registry,
  log: Logger,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const path = requestPath(req);
  if (path !== "/metrics") {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found: the metrics are at /metrics\n");
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("GET /metrics\n");
    return;
  }
  try {
    const text = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType }).end(req.method === "HEAD" ? undefined : text);
  } catch (error) {
    log.error({ err: error }, "metrics: a collector failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    res.end("metrics failed; the log has the cause\n");
  }
}
