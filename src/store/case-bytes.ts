import type { LossCases } from "../benchmark/peer-statistics.js";

/**
 * Loss cases travel from PostgreSQL as one bytea: per case, its id then its amount,
 * each a big-endian int8 (int8send), in the answer's order. A broad group lists 10^5
 * cases; as two int8[] arrays, pg parsed them character by character for 40 ms in the
 * socket's callback, where no turn could split it, and kept health checks waiting.
 * As bytes, pg decodes them natively and reading them costs about a millisecond.
 */
export function caseBytesSql(id: string, amount: string, orderBy: string): string {
  return `coalesce(string_agg(int8send(${id}) || int8send(${amount}), ''::bytea order by ${orderBy}), ''::bytea)`;
}

const CASE_BYTES = 16;

/** The cases that caseBytesSql packed. Ids and amounts are at most 2^53 - 1: exact as numbers. */
export function readCaseBytes(bytes: Buffer): LossCases {
  const count = bytes.length / CASE_BYTES;
  const ids = new Float64Array(count);
  const amounts = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    ids[i] = int8At(bytes, i * CASE_BYTES);
    amounts[i] = int8At(bytes, i * CASE_BYTES + 8);
  }
  return { ids, amounts };
}

/** A big-endian int8 within ±2^53, from its two halves (the high one signed). */
function int8At(bytes: Buffer, offset: number): number {
  return bytes.readInt32BE(offset) * 2 ** 32 + bytes.readUInt32BE(offset + 4);
}
