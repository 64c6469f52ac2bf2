import type { Auth } from "./auth.js";
import type { Session } from "./session.js";

/** Who is signed in, and the way out; `data-state` lets a test wait for the sign-in. */
export function AuthStatus({ auth, session, signingIn }: { auth: Auth; session: Session | null; signingIn: boolean }) {
  // On the way to the provider already: a button would only start a second trip.
  if (!session && signingIn) return <div class="auth-state" data-testid="auth-state" data-state="signing-in" />;
  if (!session) {
    return (
      <div class="auth-state" data-testid="auth-state" data-state="signed-out">
        <button type="button" class="button primary" data-testid="sign-in" onClick={() => void auth.signIn()}>
          Sign in
        </button>
      </div>
    );
  }
  return (
    <div class="auth-state" data-testid="auth-state" data-state="signed-in">
      <span class="user">
        Signed in as <b data-testid="auth-user">{session.user}</b>
      </span>
      <button type="button" class="button no-print" data-testid="sign-out" onClick={() => void auth.signOut()}>
        Sign out
      </button>
    </div>
  );
}
