/** Tells whether a request's answer is still wanted. */
export type IsLatest = () => boolean;

/** A sequence of requests of which only the last one started may act on its answer. */
export interface LatestOnly {
  /** Starts a request; its check stays true until another request starts. */
  begin(): IsLatest;
}

/**
 * Answers can arrive out of order: a broker who picks company A, then B before A's record
 * comes back, must not get A's sector and size (nor A's id, through the error path) while
 * the search shows B. Each request asks its check before acting, and a stale one does nothing.
 */
export function createLatestOnly(): LatestOnly {
  let latest = 0;
  return {
    begin() {
      const mine = ++latest;
      return () => mine === latest;
    },
  };
}
