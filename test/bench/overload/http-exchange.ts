import http from "node:http";

export interface Answer {
  status: number;
  retryAfter: string | undefined;
}

/** One request and its whole answer, read and dropped. */
export function send(url: URL, options: http.RequestOptions, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      res.on("data", () => {});
      res.once("end", () => resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"] }));
      res.once("error", reject);
    });
    req.once("error", reject);
    req.end(body);
  });
}

export interface Spread {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(sorted.at(-1) ?? 0) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
