import { Code, ConnectError, createContextKey, type HandlerContext, type Interceptor } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { InputProblemsSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { BadRequestSchema } from "../../gen/google/rpc/error_details_pb.js";

/** One thing wrong with a request, named by the field's canonical (spec JSON) name. */
export interface InputProblem {
  field: string;
  message: string;
  /** For `$filter`: where the offending token starts. */
  position?: number;
  /**
   * Why the value could not be read at all: `type` (not a value of the field's kind)
   * or `range` (an integer outside the field's type). Absent for rule violations.
   */
  kind?: "type" | "range";
}

/**
 * Problems found while binding a REST request to its message, handed to the
 * handler so that one answer lists them together with the handler's own checks.
 */
export const bindingProblemsKey = createContextKey<readonly InputProblem[]>([], {
  description: "problems found while reading a REST request",
});

/**
 * Takes the binding problems of this call (none over gRPC and Connect, whose messages
 * are typed): the handler now answers for them, merging them with its own checks.
 */
export function takeBindingProblems(ctx: HandlerContext): readonly InputProblem[] {
  const problems = ctx.values.get(bindingProblemsKey);
  ctx.values.set(bindingProblemsKey, []);
  return problems;
}

/**
 * Throws one `invalid_argument` error listing every problem, when there are any.
 * The message names each problem, for callers that read only the message; the
 * `InputProblems` detail carries them one by one.
 */
export function assertNoProblems(problems: readonly InputProblem[]): void {
  if (problems.length === 0) return;
  throw invalidArgument(problems);
}

/** "1 input is invalid", "3 inputs are invalid": inputs, not problems (one field may have several). */
export function summarizeProblems(problems: readonly { field: string }[]): string {
  const fields = new Set(problems.map((p) => p.field)).size;
  return fields === 1 ? "1 input is invalid" : `${fields} inputs are invalid`;
}

export function invalidArgument(all: readonly InputProblem[]): ConnectError {
  const problems = fewPerField(all);
  const message = `${summarizeProblems(problems)}: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`;
  const detail = create(InputProblemsSchema, {
    problems: problems.map(({ field, message, position }) => ({ field, message, position })),
  });
  // The same problems as google.rpc.BadRequest, the detail generic gRPC tooling reads.
  const badRequest = create(BadRequestSchema, {
    fieldViolations: problems.map(({ field, message }) => ({ field, description: message })),
  });
  return new ConnectError(message, Code.InvalidArgument, undefined, [
    { desc: InputProblemsSchema, value: detail },
    { desc: BadRequestSchema, value: badRequest },
  ]);
}

/**
 * A handler that answers without having taken the binding problems ignored them:
 * refuse the answer rather than serve figures computed from inputs the caller did
 * not send.
 */
export function createBindingProblemsInterceptor(): Interceptor {
  return (next) => async (req) => {
    const res = await next(req);
    assertNoProblems(req.contextValues.get(bindingProblemsKey));
    return res;
  };
}

/**
 * At most this many problems are listed for one field, then how many more there were:
 * a list of 1,100 bad codes made trailers of 40 KB, and gRPC clients reset such a
 * stream (grpc-js: RST_STREAM, `internal`). Every invalid field is still named.
 */
export const PROBLEMS_PER_FIELD = 5;

function fewPerField(problems: readonly InputProblem[]): InputProblem[] {
  const counts = new Map<string, number>();
  for (const { field } of problems) counts.set(field, (counts.get(field) ?? 0) + 1);
  const listed = new Map<string, number>();
  const out: InputProblem[] = [];
  for (const problem of problems) {
    const n = (listed.get(problem.field) ?? 0) + 1;
    listed.set(problem.field, n);
    if (n <= PROBLEMS_PER_FIELD) out.push(problem);
    if (n === PROBLEMS_PER_FIELD + 1)
      out.push({
        field: problem.field,
        message: `and ${counts.get(problem.field)! - PROBLEMS_PER_FIELD} more problems`,
      });
  }
  return out;
}
