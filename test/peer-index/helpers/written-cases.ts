import { create, toBinary } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { LimitAdequacySchema, LossCaseSchema } from "../../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import type { LossCases, RenderedCases } from "../../../src/benchmark/peer-statistics.js";
import { fieldJson } from "../../../src/transcoding/json-writer.js";

/** Room to copy cases into, as a writer that keeps no pool gives it. */
export const newPiece = () => new Uint8Array(64 * 1024);

/**
 * The cases as the answer's writers write them from messages: the REST writer's JSON
 * items (no brackets) and protobuf-es's entries of LimitAdequacy.list_of_cases, each
 * in one piece. What rendered bytes must equal.
 */
export function writtenCases({ ids, amounts }: LossCases): RenderedCases {
  const listOfCases = Array.from({ length: ids.length }, (_, i) =>
    create(LossCaseSchema, { lossEventId: BigInt(ids[i]!), lossAmount: amounts[i]! }),
  );
  const answer = create(LimitAdequacySchema, { listOfCases });
  const json = Buffer.concat(fieldJson(LimitAdequacySchema.field.listOfCases, answer).chunks());
  const pieces = { json: [json.subarray(1, json.length - 1)], protobuf: [toBinary(LimitAdequacySchema, answer)] };
  return { json: () => pieces.json, protobuf: () => pieces.protobuf };
}

/**
 * Limit-adequacy statistics with the cases' bytes, their pieces joined, in place of
 * `rendered`: the engine's own when it renders them, else the writers'. Two engines'
 * answers compare equal only when their bytes do too, and when each engine's pieces
 * start and end at a case's edge.
 */
export function withWrittenCases<T extends { cases: LossCases }>(stats: T) {
  const { rendered, ...cases } = stats.cases;
  const forms = rendered ?? writtenCases(cases);
  const bytes = { json: forms.json(newPiece), protobuf: forms.protobuf(newPiece) };
  return {
    ...stats,
    cases,
    written: {
      json: Buffer.concat(bytes.json).toString("latin1"),
      protobuf: Buffer.concat(bytes.protobuf).toString("hex"),
      piecesAtEdges: bytes.json.every(atJsonEdges) && bytes.protobuf.every(atEntryEdges),
    },
  };
}

/** A piece of JSON items: the first without its joining comma. */
function atJsonEdges(piece: Uint8Array, index: number): boolean {
  const text = Buffer.from(piece).toString("latin1");
  return text === "" || (text.startsWith(index === 0 ? "{" : ",{") && text.endsWith("}"));
}

/** A piece of whole protobuf entries of the list field. */
function atEntryEdges(piece: Uint8Array): boolean {
  const reader = new BinaryReader(piece);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (no !== LimitAdequacySchema.field.listOfCases.number) return false;
    reader.skip(wireType, no);
  }
  return reader.pos === reader.len;
}
