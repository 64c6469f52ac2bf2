import type { ComponentChildren } from "preact";
import type { DisclosureRefusal } from "../api/problem.js";

/** The condition the disclosure rule found broken (SEMANTICS.md 12), named in a broker's words. */
export function conditionSentence(refusal: DisclosureRefusal): string {
  switch (refusal.condition) {
    case "min_companies":
      return `Fewer than ${refusal.threshold} companies hold programs in this peer group.`;
    case "max_top2_share":
      return `Two companies hold more than ${refusal.threshold}% of this peer group's programs.`;
    case "max_source_share":
      return `One data partner contributed more than ${refusal.threshold}% of this peer group's partner programs.`;
    default:
      return `The confidentiality rule's condition “${refusal.condition}” is not met.`;
  }
}

interface RefusalExplanationProps {
  /** Each condition broken, once, whichever figures it withheld. */
  refusals: readonly DisclosureRefusal[];
  /** What to do about it: today the ways left to widen the group; later, suggested groups. */
  children: ComponentChildren;
}

/**
 * The one explanation of withheld figures (issue 27): at the top, naming the condition,
 * instead of the same advice in every panel. The panels only say "withheld".
 */
export function RefusalExplanation({ refusals, children }: RefusalExplanationProps) {
  return (
    <div
      class="guidance"
      role="status"
      data-testid="refusal-guidance"
      data-condition={refusals.map((r) => r.condition).join(" ")}
    >
      <p class="guidance-title">Some figures are withheld to keep contributors' programs confidential</p>
      {refusals.map((r) => (
        <p key={r.condition} data-testid="refusal-condition">
          {conditionSentence(r)}
        </p>
      ))}
      {children}
    </div>
  );
}

/** The ways to widen the group, as a list: the part peer-group suggestions will replace. */
export function WidenAdvice({ options, lead }: { options: readonly string[]; lead: string }) {
  if (options.length === 0)
    return (
      <div data-testid="refusal-advice">
        <p>The group is already as wide as the console can make it.</p>
      </div>
    );
  return (
    <div data-testid="refusal-advice">
      <p>{lead}</p>
      <ul>
        {options.map((option) => (
          <li key={option}>{option}</li>
        ))}
      </ul>
    </div>
  );
}
