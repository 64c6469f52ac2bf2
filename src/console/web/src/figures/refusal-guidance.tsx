import { widenAdvice, type ApiProblem } from "../api/problem.js";

/**
 * A disclosure refusal (README, "Confidentiality"): the group is too narrow to show
 * without revealing contributors' programs. Shown as advice on what to widen, with the
 * API's own sentence, not as a failure.
 */
export function RefusalGuidance({ problem, testId }: { problem: ApiProblem; testId: string }) {
  if (!problem.disclosure) return null;
  return (
    <div class="guidance" role="status" data-testid={testId} data-condition={problem.disclosure.condition}>
      <p class="guidance-title">Widen the peer group to see this figure</p>
      <p>{widenAdvice(problem.disclosure)}</p>
      <p class="guidance-detail">{problem.detail}</p>
    </div>
  );
}
