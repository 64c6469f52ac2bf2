/**
 * JSON.parse as an oracle, safe from V8's escaped-key bug (nodejs/node#63785, V8 issue
 * 521080746; Node 24 and 26 up to 26.5): once a document has had an object key `"\\"`,
 * a later object with the same keys before it reads an escaped key in that place
 * (`"\/"`, `"\u0000"`, `"\""`) as a backslash. String values are not affected.
 *
 * So every key is read as a string value on its own, and the document is parsed with
 * each key replaced by a plain stand-in (the same one for keys that read the same, so
 * a repeated key still keeps its last value); the stand-ins are then put back.
 * Throws exactly when JSON.parse throws: the stand-ins are plain strings in the same
 * places, and a text JSON.parse refuses is refused before any rewriting.
 */
const COLON = /\s*:/y;

export function jsonParseOracle(text: string): unknown {
  JSON.parse(text); // refuses what JSON.parse refuses, bug or not
  const standIns = new Map<string, string>();
  const keys: string[] = [];
  let rewritten = "";
  let copied = 0;
  // In valid JSON every quote outside a string opens one, which runs to the next quote
  // no backslash escapes; it is a key exactly when a colon follows it.
  for (let at = text.indexOf('"'); at !== -1; at = text.indexOf('"', at)) {
    let end = at + 1;
    while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
    end++;
    COLON.lastIndex = end;
    if (COLON.test(text)) {
      const key = JSON.parse(text.slice(at, end)) as string;
      let standIn = standIns.get(key);
      if (standIn === undefined) {
        standIn = `k${keys.length}`;
        standIns.set(key, standIn);
        keys.push(key);
      }
      rewritten += `${text.slice(copied, at)}"${standIn}"`;
      copied = end;
    }
    at = end;
  }
  return restoreKeys(JSON.parse(rewritten + text.slice(copied)), keys);
}

function restoreKeys(value: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((member) => restoreKeys(member, keys));
  if (value === null || typeof value !== "object") return value;
  const restored: Record<string, unknown> = {};
  for (const [standIn, member] of Object.entries(value)) {
    Object.defineProperty(restored, keys[Number(standIn.slice(1))]!, {
      value: restoreKeys(member, keys),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return restored;
}
