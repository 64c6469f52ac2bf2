/**
 * What must survive the round trip to the provider: the PKCE verifier and the page to
 * return to, keyed by `state`. sessionStorage is per tab and ends with it; it never holds
 * a token (issue 16 allows the verifier and state there).
 */
export interface PendingLogin {
  codeVerifier: string;
  /** The console URL (path and query: the peer group) the sign-in started from. */
  returnTo: string;
}

const PREFIX = "cpb-console:login:";
/**
 * The last sign-in's returnTo, apart from its state: a callback whose state matches no
 * pending login (stale, or replayed) still goes back to the page the broker was on.
 */
const LAST_RETURN_TO = "cpb-console:return-to";

export function savePendingLogin(state: string, login: PendingLogin): void {
  sessionStorage.setItem(PREFIX + state, JSON.stringify(login));
  sessionStorage.setItem(LAST_RETURN_TO, login.returnTo);
}

/** The page the latest sign-in started from, when one was started in this tab. */
export function lastReturnTo(): string | null {
  return sessionStorage.getItem(LAST_RETURN_TO);
}

/** Reads and forgets the login for `state`: a verifier is good for one exchange only. */
export function takePendingLogin(state: string): PendingLogin | null {
  const key = PREFIX + state;
  const text = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<PendingLogin>;
    if (typeof value.codeVerifier !== "string" || typeof value.returnTo !== "string") return null;
    return { codeVerifier: value.codeVerifier, returnTo: value.returnTo };
  } catch {
    return null;
  }
}

/** Drops every unfinished login (sign-in done, sign-out, or abandoned round trips piling up). */
export function clearPendingLogins(): void {
  sessionStorage.removeItem(LAST_RETURN_TO);
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
  }
}
