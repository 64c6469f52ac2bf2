/** The peer index as /readyz reports it (absent on servers without one; figures null when not given). */
export interface PeerIndexState {
  state: "off" | "building" | "ready" | "stale";
  version: number | null;
  programs: number | null;
  losses: number | null;
  bytes: number | null;
  buildMs: number | null;
}

export interface Readyz {
  status: number;
  /** The server's event-loop delay over the last 30-60 s (p50, p99, max), when it reports one. */
  eventLoopDelayMs: { p50: number; p99: number; max: number } | null;
  datasetVersion: number | null;
  peerIndex: PeerIndexState | null;
  reasons: string[];
}

/** GET /readyz; a refused connection is a status of 0. */
export async function readReadyz(baseUrl: string): Promise<Readyz> {
  try {
    const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as {
      datasetVersion?: number | null;
      peerIndex?: Partial<PeerIndexState> | null;
      reasons?: string[];
      eventLoopDelayMs?: Readyz["eventLoopDelayMs"];
    };
    return {
      status: response.status,
      eventLoopDelayMs: body.eventLoopDelayMs ?? null,
      datasetVersion: body.datasetVersion ?? null,
      peerIndex: body.peerIndex?.state ? peerIndexOf(body.peerIndex) : null,
      reasons: body.reasons ?? [],
    };
  } catch {
    return { status: 0, eventLoopDelayMs: null, datasetVersion: null, peerIndex: null, reasons: ["no answer"] };
  }
}

function peerIndexOf(raw: Partial<PeerIndexState>): PeerIndexState {
  const figure = (value: unknown) => (typeof value === "number" ? value : null);
  return {
    state: raw.state ?? "off",
    version: figure(raw.version),
    programs: figure(raw.programs),
    losses: figure(raw.losses),
    bytes: figure(raw.bytes),
    buildMs: figure(raw.buildMs),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls every `intervalMs` until `done` holds; null when `timeoutMs` passes first. */
export async function pollReadyz(
  baseUrl: string,
  done: (readyz: Readyz) => boolean,
  options: { intervalMs: number; timeoutMs: number; abort?: () => string | undefined },
): Promise<Readyz | null> {
  const deadline = performance.now() + options.timeoutMs;
  while (performance.now() < deadline) {
    const aborted = options.abort?.();
    if (aborted) throw new Error(aborted);
    const readyz = await readReadyz(baseUrl);
    if (done(readyz)) return readyz;
    await sleep(options.intervalMs);
  }
  return null;
}
