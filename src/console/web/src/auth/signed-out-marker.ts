/**
 * Set by an explicit sign-out, so that the page the provider sends back to offers a
 * "Sign in" button instead of signing in again at once (README, Console: a reload signs
 * in again, a sign-out does not). It lasts until the next sign-in starts, in this tab.
 */
const KEY = "cpb-console:signed-out";

export function markSignedOut(): void {
  sessionStorage.setItem(KEY, "1");
}

export function wasSignedOut(): boolean {
  return sessionStorage.getItem(KEY) !== null;
}

export function clearSignedOut(): void {
  sessionStorage.removeItem(KEY);
}
