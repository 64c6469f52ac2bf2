// The programs' sources as the build reads them from COPY's text format: NULL and ""
// are no source, `curated` is curated, anything else a partner by its exact text, once,
// even when two texts share a hash.
import t from "tap";
import { CopyRow } from "../../src/peer-index/copy-rows.js";
import { CURATED, NO_SOURCE } from "../../src/peer-index/snapshot.js";
import { SourceDictionary } from "../../src/peer-index/source-dictionary.js";

/** A one-field row holding `field` as COPY sends it (escaped). */
function rowOf(field: string): CopyRow {
  const row = new CopyRow(1);
  row.buffer = Buffer.from(`xx${field}yy`, "utf8"); // not at the buffer's start, as in a stream
  row.starts[0] = 2;
  row.ends[0] = row.buffer.length - 2;
  return row;
}

/** COPY TO's text escaping (PostgreSQL's COPY, "Text Format"). */
function escaped(text: string): string {
  const letters: Record<string, string> = {
    "\\": "\\",
    "\b": "b",
    "\f": "f",
    "\n": "n",
    "\r": "r",
    "\t": "t",
    "\v": "v",
  };
  return text.replace(/[\\\b\f\n\r\t\v]/g, (c) => `\\${letters[c]}`);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash;
}

/** Two texts with the same 32-bit FNV-1a hash (a birthday search: some 80,000 texts). */
function collidingTexts(): [string, string] {
  const seen = new Map<number, string>();
  for (let k = 0; ; k++) {
    const text = `P${k}`;
    const other = seen.get(fnv1a(text));
    if (other !== undefined) return [other, text];
    seen.set(fnv1a(text), text);
  }
}

t.test("no source, curated, partners", async (t) => {
  const sources = new SourceDictionary();
  t.equal(sources.indexOf(rowOf("\\N"), 0), NO_SOURCE, "NULL");
  t.equal(sources.indexOf(rowOf(""), 0), NO_SOURCE, '""');
  t.equal(sources.indexOf(rowOf("curated"), 0), CURATED, "curated");
  const texts = [
    "P001",
    "\\",
    "\\N",
    "tab\there",
    "new\nline\r\n",
    "all\b\f\v",
    "Ünïcødé ☂",
    "Curated",
    "curated ",
    "N",
  ];
  const indexes = texts.map((text) => sources.indexOf(rowOf(escaped(text)), 0));
  t.strictSame(
    indexes.map((index) => sources.texts[index]),
    texts,
    "each partner's text read back exactly",
  );
  t.equal(new Set(indexes).size, texts.length, "each its own index");
  t.ok(
    indexes.every((index) => index > CURATED),
    "none is no source or curated",
  );
  t.strictSame(
    texts.map((text) => sources.indexOf(rowOf(escaped(text)), 0)),
    indexes,
    "the same text, the same index",
  );
  t.equal(sources.texts.length, 2 + texts.length, "nothing else");
});

t.test("texts with the same hash", async (t) => {
  const [a, b] = collidingTexts();
  t.equal(fnv1a(a), fnv1a(b), `${a} and ${b} share a hash`);
  const sources = new SourceDictionary();
  const [first, second] = [sources.indexOf(rowOf(a), 0), sources.indexOf(rowOf(b), 0)];
  t.not(first, second, "two sources");
  t.strictSame([sources.texts[first], sources.texts[second]], [a, b], "both texts kept");
  t.strictSame([sources.indexOf(rowOf(b), 0), sources.indexOf(rowOf(a), 0)], [second, first], "each found again");
});
