import type { Auth } from "./auth";
import type { Session } from "./session";

/** Who is signed in, and the way out; `data-state` lets a test wait for the sign-in. */
export function AuthStatus({ auth, session }: { auth: Auth; session: Session | null }) {
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
