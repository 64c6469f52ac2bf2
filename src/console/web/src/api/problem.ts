/**
 * An RFC 9457 problem document from the API (docs/calling-the-api.md), as an exception the
 * views can tell apart: a disclosure refusal is guidance, not a failure, and a 400's
 * field problems are shown beside the builder.
 */
export interface DisclosureRefusal {
  /** min_companies, max_top2_share or max_source_share (README, "Confidentiality"). */
  condition: string;
  threshold: number;
}

/** One input the API refused: the field in the API's names, and why. */
export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiProblem extends Error {
  constructor(
    /** The HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    /** The broker-readable sentence the API wrote. */
    readonly detail: string,
    readonly disclosure: DisclosureRefusal | null = null,
    readonly fieldProblems: readonly FieldProblem[] = [],
  ) {
    super(detail);
    this.name = "ApiProblem";
  }

  get isRefusal(): boolean {
    return this.disclosure !== null;
  }

  /** Reads a problem document; anything else (a proxy's HTML page) becomes a plain status. */
  static async from(response: Response): Promise<ApiProblem> {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // not JSON: keep the status alone
    }
    return problemFromBody(response.status, body);
  }
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * The problem a status and parsed body stand for. Field problems come as the API writes
 * them (`errors: [{field, message, position?}]`, src/transcoding/problem-document.ts) or
 * as RFC 7807's example extension (`invalid-params: [{name, reason}]`) from a gateway.
 */
export function problemFromBody(status: number, body: unknown): ApiProblem {
  const doc = record(body);
  const disclosure = record(doc.disclosure);
  const condition = text(disclosure.condition);
  const fields: FieldProblem[] = [];
  for (const item of Array.isArray(doc.errors) ? doc.errors : []) {
    const { field, message } = record(item);
    if (text(message)) fields.push({ field: text(field) ?? "", message: message as string });
  }
  for (const item of Array.isArray(doc["invalid-params"]) ? doc["invalid-params"] : []) {
    const { name, reason } = record(item);
    if (text(reason)) fields.push({ field: text(name) ?? "", message: reason as string });
  }
  return new ApiProblem(
    status,
    text(doc.detail) ?? text(doc.title) ?? `HTTP ${status}`,
    condition ? { condition, threshold: Number(disclosure.threshold) } : null,
    fields,
  );
}
