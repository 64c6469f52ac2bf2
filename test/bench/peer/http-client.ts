import http from "node:http";
import type { ApiCall } from "./operations.js";

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  /** From sending the request to the last byte of the answer. */
  ms: number;
}

export interface ApiClient {
  send(call: ApiCall): Promise<Answer>;
  close(): void;
}

/**
 * HTTP/1.1 over one kept-alive connection, as a real client at concurrency 1 would
 * hold it: what is timed is the request, never a connection set-up.
 */
export function createApiClient(baseUrl: string, token: string): ApiClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(baseUrl);
  return {
    send(call) {
      return new Promise((resolve, reject) => {
        const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${token}` };
        if (call.body !== undefined) {
          headers["content-type"] = "application/json";
          headers["content-length"] = Buffer.byteLength(call.body);
        }
        const started = performance.now();
        const request = http.request(
          {
            agent,
            host: base.hostname,
            port: base.port,
            method: call.method,
            path: call.path,
            headers,
            timeout: 120_000,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                contentType: response.headers["content-type"] ?? "",
                body: Buffer.concat(chunks),
                ms: performance.now() - started,
              }),
            );
            response.on("error", reject);
          },
        );
        request.on("timeout", () => request.destroy(new Error("no answer within 120 s")));
        request.on("error", reject);
        request.end(call.body);
      });
    },
    close: () => agent.destroy(),
  };
}
