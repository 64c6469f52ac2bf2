import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { assertNoProblems, takeBindingProblems } from "../rpc/input-problems.js";

/**
 * Checks the id of a lookup (SEMANTICS.md section 10): an id that is not an
 * integer is a 400, while any integer, even one too large for the field, is
 * simply an id with no record: a 404.
 */
export function assertLookupId(ctx: HandlerContext, thing: string): void {
  const problems = takeBindingProblems(ctx);
  if (problems.length > 0 && problems.every((p) => p.kind === "range")) throw notFound(thing);
  assertNoProblems(problems);
}

export function notFound(thing: string, id?: bigint): ConnectError {
  return new ConnectError(id === undefined ? `no ${thing} with that id` : `no ${thing} with id ${id}`, Code.NotFound);
}
