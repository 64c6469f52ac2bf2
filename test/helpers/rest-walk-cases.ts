import { MISSING_ID, requestOf, requiredInputs, type DocumentedOperation } from "./openapi-operations.js";
import type { RawRequest } from "./raw-exchange.js";

/** A request of the walk, and the status it must get. */
export interface WalkCase {
  name: string;
  request: RawRequest;
  status: number;
}

/**
 * The requests a walk of one documented operation makes: a 200 (and gzip'd), no token,
 * its 304 (given the 200's ETag), each required input left out, an unknown record, and
 * for a POST bodies with and without content-length, in one piece or in 3-byte pieces,
 * of 1,000,000 bytes, empty, malformed and over 1 MiB.
 */
export function restWalkCases(op: DocumentedOperation, authorization: string, etag: string | undefined): WalkCase[] {
  const name = `${op.method} ${op.template}`;
  const inputs = requiredInputs(op);
  const post = op.method === "POST";
  const make = (label: string, status: number, init: Partial<RawRequest> & { inputs?: Map<string, unknown> }) => {
    const { target, body } = requestOf(op, init.inputs ?? inputs, init.target);
    const json = Buffer.from(JSON.stringify(body));
    return {
      name: `${name}: ${label}`,
      status,
      request: {
        method: op.method,
        target,
        headers: { authorization, "x-request-id": `h2c-parity-${label.replace(/[^a-z0-9]+/gi, "-")}`, ...init.headers },
        body: init.body ?? (post ? [json] : undefined),
        contentLength: init.contentLength ?? true,
      },
    };
  };
  const cases: WalkCase[] = [
    make("complete", 200, {}),
    make("complete, gzip accepted", 200, { headers: { "accept-encoding": "gzip" } }),
    make("no token", 401, { headers: { authorization: "" } }),
  ];
  if (etag) cases.push(make("If-None-Match", 304, { headers: { "if-none-match": etag } }));
  for (const input of op.required.filter((i) => i.in !== "path")) {
    const without = new Map(inputs);
    without.delete(input.name);
    cases.push(make(`without ${input.name}`, 400, { inputs: without }));
  }
  if (op.required.some((input) => input.in === "path"))
    cases.push(make("no such record", 404, { target: MISSING_ID as unknown as string }));
  if (post) {
    const json = Buffer.from(JSON.stringify(requestOf(op, inputs).body));
    const pieces = (whole: Buffer, size: number) => {
      const list: Buffer[] = [];
      for (let at = 0; at < whole.length; at += size) list.push(whole.subarray(at, at + size));
      return list;
    };
    // JSON allows any run of whitespace between tokens: a body of 1,000,000 bytes, under the 1 MiB limit.
    const large = Buffer.concat([json.subarray(0, 1), Buffer.alloc(1_000_000 - json.length, " "), json.subarray(1)]);
    cases.push(
      make("body without content-length", 200, { contentLength: false }),
      make("body in 3-byte pieces", 200, { body: pieces(json, 3) }),
      make("body in 3-byte pieces, no content-length", 200, { body: pieces(json, 3), contentLength: false }),
      make("a 1,000,000-byte body", 200, { body: pieces(large, 16_384) }),
      make("a 1,000,000-byte body, no content-length", 200, { body: pieces(large, 16_384), contentLength: false }),
      make("empty body", 400, { body: [] }),
      make("malformed JSON", 400, { body: [Buffer.from('{"naics": [')] }),
      make("a body over 1 MiB", 413, { body: [Buffer.from(`{"naics":"${"1".repeat(1_100_000)}"}`)] }),
      make("a body over 1 MiB, no content-length", 413, {
        body: pieces(Buffer.from(`{"naics":"${"1".repeat(1_100_000)}"}`), 65_536),
        contentLength: false,
      }),
    );
  }
  return cases;
}
