import { useEffect, useState } from "preact/hooks";
import type { Auth } from "./auth.js";
import type { Session } from "./session.js";

/** The current session, re-rendering on sign-in, renewal and sign-out. */
export function useSession(auth: Auth): Session | null {
  const [session, setSession] = useState(auth.session());
  useEffect(() => auth.subscribe(() => setSession(auth.session())), [auth]);
  return session;
}
