import { LimitAdequacySchema, LossCaseSchema } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { create, toBinary } from "@bufbuild/protobuf";
import type { CaseColumns } from "./snapshot.js";

const LIST_FIELD = LimitAdequacySchema.field.listOfCases;
const ID_FIELD = LossCaseSchema.field.lossEventId;
const AMOUNT_FIELD = LossCaseSchema.field.lossAmount;
const JSON_ID_KEY = `,{${JSON.stringify(ID_FIELD.jsonName)}:`;
const JSON_AMOUNT_KEY = `,${JSON.stringify(AMOUNT_FIELD.jsonName)}:`;
const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH_DELIMITED = 2;
const LIST_TAG = (LIST_FIELD.number << 3) | WIRE_LENGTH_DELIMITED;
const ID_TAG = (ID_FIELD.number << 3) | WIRE_VARINT;
const AMOUNT_TAG = (AMOUNT_FIELD.number << 3) | WIRE_FIXED64;
/** The most bytes a case takes in either form: two numbers of at most 24 characters, or a 10-byte varint and 8 bytes. */
const MOST_JSON_BYTES = JSON_ID_KEY.length + JSON_AMOUNT_KEY.length + 2 * 24 + 1;
const MOST_PROTO_BYTES = 40;

/**
 * The case columns (CaseColumns) from the loaded ids and amounts by row, and the row at
 * each place: places in order, so that case p's bytes end where case p + 1's begin.
 * The JSON is `,{"lossEventID":…,"lossAmount":…}`, every field present and numbers as
 * JSON.stringify writes them (the REST face); the leading comma joins it to the case
 * before, and the first case of an answer goes without it. The protobuf is the whole
 * entry of LimitAdequacy.list_of_cases, tag and length included, so that entries in a
 * row are the list's encoding as they stand. Both follow the contract
 * (loss_details.proto), and a property test holds them to what the REST writer and
 * protobuf-es write.
 */
export function caseColumns(id: Float64Array, amount: Float64Array, rowByPlace: Uint32Array): CaseColumns {
  const places = rowByPlace.length;
  const caseId = new Float64Array(places);
  const caseAmount = new Float64Array(places);
  const json = Buffer.alloc(places * MOST_JSON_BYTES);
  const proto = Buffer.alloc(places * MOST_PROTO_BYTES);
  const caseJsonStart = new Uint32Array(places + 1);
  const caseProtoStart = new Uint32Array(places + 1);
  let jsonEnd = 0;
  let protoEnd = 0;
  for (let p = 0; p < places; p++) {
    const row = rowByPlace[p]!;
    const caseOfId = (caseId[p] = id[row]!);
    const caseOfAmount = (caseAmount[p] = amount[row]!);
    caseJsonStart[p] = jsonEnd;
    caseProtoStart[p] = protoEnd;
    jsonEnd += json.write(`${JSON_ID_KEY}${caseOfId}${JSON_AMOUNT_KEY}${caseOfAmount}}`, jsonEnd, "latin1");
    protoEnd = writeProtoEntry(proto, protoEnd, caseOfId, caseOfAmount);
  }
  caseJsonStart[places] = jsonEnd;
  caseProtoStart[places] = protoEnd;
  return {
    caseId,
    caseAmount,
    caseJson: new Uint8Array(json.subarray(0, jsonEnd)),
    caseJsonStart,
    caseProto: new Uint8Array(proto.subarray(0, protoEnd)),
    caseProtoStart,
  };
}

/** The list entry of one case at `at`; where it ends. */
function writeProtoEntry(out: Buffer, at: number, id: number, amount: number): number {
  if (!(Number.isSafeInteger(id) && id >= 0))
    return writeEntryOf(out, at, toBinary(LossCaseSchema, caseOf(id, amount)));
  // proto3: a field at its zero value is not written.
  const length = (id === 0 ? 0 : 1 + varintLength(id)) + (amount === 0 ? 0 : 9);
  out[at++] = LIST_TAG;
  at = writeVarint(out, at, length);
  if (id !== 0) {
    out[at++] = ID_TAG;
    at = writeVarint(out, at, id);
  }
  if (amount !== 0) {
    out[at++] = AMOUNT_TAG;
    at = out.writeDoubleLE(amount, at);
  }
  return at;
}

/** An entry from a case's encoding by protobuf-es: for an id outside the plain varints (never in valid data). */
function writeEntryOf(out: Buffer, at: number, encoded: Uint8Array): number {
  out[at++] = LIST_TAG;
  at = writeVarint(out, at, encoded.length);
  out.set(encoded, at);
  return at + encoded.length;
}

function caseOf(id: number, amount: number) {
  return create(LossCaseSchema, { lossEventId: BigInt(Math.trunc(id)), lossAmount: amount });
}

/** A varint of a whole number from 0 to 2^53 - 1 (division, not bit shifts: past 2^31 those would wrap). */
function writeVarint(out: Buffer, at: number, value: number): number {
  let rest = value;
  while (rest >= 0x80) {
    out[at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out[at++] = rest;
  return at;
}

function varintLength(value: number): number {
  let length = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) length++;
  return length;
}
