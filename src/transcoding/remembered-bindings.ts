import { LRUCache } from "lru-cache";
import type { HttpRoute } from "./http-routes.js";

/** A request bound without problems: what the answer cache and the handler take. */
export interface BoundRequest {
  /** The request message, in binary. */
  readonly input: Uint8Array;
  /** The caller's decimal text of each amount, by JSON name. */
  readonly decimalTexts: ReadonlyMap<string, string>;
  /** The request in canonical form (canonicalRequest): the answer cache's key. */
  readonly canonical: string;
}

/** Spellings longer than this are bound every time: a large body is rarely sent twice. */
const MAX_SPELLING_CHARS = 16 * 1024;

/**
 * Requests bound before, by their exact spelling (method, target and body). Binding is
 * a pure function of the spelling, so a request spelled as one seen before skips route
 * parameters, binding and encoding, the larger part of answering it from the answer
 * cache. Bounded by characters kept; the data never makes an entry wrong.
 */
export function createRememberedBindings(maxChars: number) {
  const bindings = new LRUCache<string, BoundRequest>({
    maxSize: maxChars,
    sizeCalculation: (bound, spelling) => spelling.length + bound.canonical.length + bound.input.length,
  });
  return {
    get: (spelling: string) => bindings.get(spelling),
    remember(spelling: string, bound: BoundRequest): void {
      if (spelling.length <= MAX_SPELLING_CHARS) bindings.set(spelling, bound);
    },
  };
}

/** A request's exact spelling, for the route it matched. */
export function spellingOf(method: string, target: string, body: string | undefined): string {
  return body === undefined ? `${method} ${target}` : `${method} ${target}\n${body}`;
}

/**
 * A request as the cache knows it: the method and its bound message, in binary (so aliases,
 * parameter spelling and a comma list or an array come to one form), with the decimal
 * text of each amount, which the answer may depend on, and the part of the answer the
 * route sends. The GET and POST forms of one method share their answers.
 */
export function canonicalRequest(
  route: HttpRoute,
  input: Uint8Array,
  decimalTexts: ReadonlyMap<string, string>,
): string {
  const texts = [...decimalTexts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([field, text]) => `${field}=${text}`);
  return [
    route.method.parent.typeName,
    route.method.name,
    route.responseBody,
    Buffer.from(input).toString("base64"),
    ...texts,
  ].join("\n");
}
