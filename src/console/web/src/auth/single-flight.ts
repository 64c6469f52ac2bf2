/**
 * Calls of `task` while one is under way share its promise instead of starting another:
 * five API calls that find the token expired make one refresh (a refresh token may be
 * good for one use only) or one trip to the provider, not five. Once it settles, the
 * next call starts anew.
 */
export function singleFlight<T>(task: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    inFlight ??= task().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
