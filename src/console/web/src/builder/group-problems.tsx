import type { FieldProblem } from "../api/problem.js";

interface GroupProblemsProps {
  /** The inputs the API refused (a 400's field problems), in its parameter names. */
  refused: readonly FieldProblem[];
  /** Ids in the group (often from an old link) the reference data no longer lists. */
  unknown: readonly string[];
}

/**
 * Why the group as built cannot be answered, next to the inputs that fix it: the API's
 * own words for each refused field, and the ids it no longer knows. The builder's own
 * checks catch the usual mistakes first; this is what only the API or the data can tell.
 */
export function GroupProblems({ refused, unknown }: GroupProblemsProps) {
  if (refused.length === 0 && unknown.length === 0) return null;
  return (
    <div class="group-problems" role="alert" data-testid="group-problems">
      {refused.length > 0 ? (
        <>
          <p class="group-problems-title">The service did not accept this peer group:</p>
          <ul>
            {refused.map((p) => (
              <li key={`${p.field}:${p.message}`}>
                {p.field ? <code>{p.field}</code> : null}
                {p.field ? ": " : ""}
                {p.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {unknown.length > 0 ? (
        <p data-testid="unknown-ids">
          The reference data no longer has {unknown.join(", ")}: the link may be older than the data. Choose again
          below.
        </p>
      ) : null}
    </div>
  );
}
