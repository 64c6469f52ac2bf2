/** What a sign-in leaves in memory: never in localStorage or sessionStorage (issue 16). */
export interface Session {
  accessToken: string;
  /** Sent back to the provider as id_token_hint at sign-out. */
  idToken: string | undefined;
  refreshToken: string | undefined;
  /** Epoch milliseconds; renewal starts a little before. */
  expiresAt: number;
  /** A name to show: name, preferred_username, email or sub, whichever the ID token has. */
  user: string;
}

/** Renew this long before `exp`, so a request never leaves with a token about to lapse. */
const EXPIRY_MARGIN_MS = 30_000;

export function isFresh(session: Session, now = Date.now()): boolean {
  return session.expiresAt - EXPIRY_MARGIN_MS > now;
}

/** The display name from ID token claims, in order of how readable each is. */
export function displayName(claims: Record<string, unknown> | undefined): string {
  for (const key of ["name", "preferred_username", "email", "sub"]) {
    const value = claims?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return "signed-in user";
}
