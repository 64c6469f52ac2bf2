// The case columns made at build (case-columns.ts) against the loaded rows and what the
// REST writer and protobuf-es write for the same cases: every varint length of an id,
// the zero values proto3 leaves out, and amounts up to 2^53 - 1.
import t from "tap";
import { caseColumns } from "../../src/peer-index/case-columns.js";
import { createSeededRandom } from "../helpers/seeded-random.js";
import { newPiece, writtenCases } from "./helpers/written-cases.js";

const EDGE_IDS = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 49 + 3, 2 ** 53 - 1];
const EDGE_AMOUNTS = [0, 1, 999, 2 ** 31, 2 ** 32 + 1, 1e15, 2 ** 53 - 1];

t.test("each place holds its row's case, in the writers' bytes", async (t) => {
  const random = createSeededRandom("cpb-case-columns-1");
  const ids = [...EDGE_IDS, ...Array.from({ length: 200 }, () => Math.floor(random.next() * 2 ** 40))];
  const amounts = ids.map(
    (_, i) => EDGE_AMOUNTS[i % EDGE_AMOUNTS.length]! + (i > 20 ? Math.floor(random.next() * 1e9) : 0),
  );
  // Rows in any order; each place names one.
  const rowByPlace = Uint32Array.from(ids.map((_, row) => row).sort(() => random.next() - 0.5));
  const columns = caseColumns(Float64Array.from(ids), Float64Array.from(amounts), rowByPlace);
  const rows = Array.from(rowByPlace);
  t.strictSame(
    Array.from(columns.caseId),
    rows.map((row) => ids[row]),
    "ids by place",
  );
  t.strictSame(
    Array.from(columns.caseAmount),
    rows.map((row) => amounts[row]),
    "amounts by place",
  );
  for (const [start, end] of [
    [0, ids.length],
    [0, 1],
    [90, 91],
    [17, 140],
  ] as const) {
    const expected = writtenCases({
      ids: columns.caseId.subarray(start, end),
      amounts: columns.caseAmount.subarray(start, end),
    });
    const json = columns.caseJson.subarray(columns.caseJsonStart[start], columns.caseJsonStart[end]);
    const proto = columns.caseProto.subarray(columns.caseProtoStart[start], columns.caseProtoStart[end]);
    t.equal(
      Buffer.from(json).toString("latin1"),
      `,${Buffer.concat(expected.json(newPiece)).toString("latin1")}`,
      `JSON of places ${start} to ${end}`,
    );
    t.equal(
      Buffer.from(proto).toString("hex"),
      Buffer.concat(expected.protobuf(newPiece)).toString("hex"),
      `protobuf of places ${start} to ${end}`,
    );
  }
  t.equal(columns.caseJsonStart[ids.length], columns.caseJson.length, "the last JSON item ends the bytes");
  t.equal(columns.caseProtoStart[ids.length], columns.caseProto.length, "the last entry ends the bytes");
});
