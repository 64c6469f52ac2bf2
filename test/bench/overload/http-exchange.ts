import http from "node:http";
import { percentile } from "../peer/stats.js";

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

/** Nearest-rank p50, p99 and the maximum, to a tenth of a ms; 0 for no values (none was slow). */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { p50Ms: 0, p99Ms: 0, maxMs: 0 };
  return {
    p50Ms: round(percentile(values, 50)),
    p99Ms: round(percentile(values, 99)),
    maxMs: round(percentile(values, 100)),
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
