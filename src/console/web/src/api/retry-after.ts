/**
 * The service answers 503 with Retry-After when its admission gate is full or its
 * database is briefly away (docs/calling-the-api.md): the call was not served and may be
 * made again as told. The console does so a few times, the figure showing as loading
 * meanwhile, instead of showing a broker a failure the server said would pass.
 */

/** How many times one call is made again after a 503 with Retry-After. */
export const MAX_RETRIES = 3;

/** The longest wait honoured: the server gives at most 30 s (src/load-control/admission-gate.ts). */
const MAX_WAIT_MS = 30_000;

/**
 * The wait a Retry-After header asks for, in ms (delay-seconds or an HTTP date, RFC 9110
 * 10.2.3), at most 30 s; null when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  // Every HTTP date form ends in GMT; Date.parse alone would take "-1" for a year.
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : / GMT$/.test(value) ? Date.parse(value) - now : NaN;
  return Number.isNaN(ms) ? null : Math.min(MAX_WAIT_MS, Math.max(0, ms));
}

/**
 * Waits `ms` plus up to a quarter more, at random: the figures a full gate refused
 * together are then not all asked again in the same instant. Rejects with the signal's
 * reason once it aborts (a newer group replaced the call).
 */
export function waitToRetry(ms: number, signal: AbortSignal | undefined, random: () => number = Math.random) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      ms * (1 + random() / 4),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
