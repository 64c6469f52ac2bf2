/**
 * An RFC 9457 problem document from the API (README, "Calling it"), as an exception the
 * views can tell apart: a disclosure refusal is guidance, not a failure.
 */
export interface DisclosureRefusal {
  /** min_companies, max_top2_share or max_source_share (README, "Confidentiality"). */
  condition: string;
  threshold: number;
}

export interface FieldProblem {
  field?: string;
  message?: string;
}

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    /** The Connect code: invalid_argument, failed_precondition, unavailable, ... */
    readonly code: string,
    /** The broker-readable sentence the API wrote. */
    readonly detail: string,
    readonly disclosure: DisclosureRefusal | null,
    readonly problems: FieldProblem[],
  ) {
    super(detail);
    this.name = "ApiProblem";
  }

  get isRefusal(): boolean {
    return this.disclosure !== null;
  }

  /** Reads a problem document; anything else (a proxy's HTML page) becomes a plain status. */
  static async from(response: Response): Promise<ApiProblem> {
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = await response.json();
      if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
    } catch {
      // not JSON: keep the status alone
    }
    const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : undefined);
    const disclosure = body.disclosure as Partial<DisclosureRefusal> | undefined;
    return new ApiProblem(
      response.status,
      text("code") ?? "unknown",
      text("detail") ?? text("title") ?? `HTTP ${response.status}`,
      disclosure && typeof disclosure.condition === "string"
        ? { condition: disclosure.condition, threshold: Number(disclosure.threshold) }
        : null,
      Array.isArray(body.errors) ? (body.errors as FieldProblem[]) : [],
    );
  }
}

/** What to widen for each disclosure condition, in a broker's words. */
export function widenAdvice(refusal: DisclosureRefusal): string {
  switch (refusal.condition) {
    case "min_companies":
      return `The group needs at least ${refusal.threshold} companies. Widen the NAICS codes (a 2-digit sector instead of a subsector), the exposure range, the organization types or the window.`;
    case "max_top2_share":
      return `Two companies hold too much of the group (over ${refusal.threshold}%). Add companies: widen the NAICS codes, the exposure range or the window.`;
    case "max_source_share":
      return `One data partner holds too much of the group (over ${refusal.threshold}%). Widen the group so more partners contribute: NAICS codes, exposure range or window.`;
    default:
      return "Widen the peer group: the NAICS codes, the exposure range, the organization types or the window.";
  }
}
