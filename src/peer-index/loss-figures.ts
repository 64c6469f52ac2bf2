import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { LossCases, NewPiece } from "../benchmark/peer-statistics.js";
import { firstAbove } from "./peer-filter.js";
import { forEachMarkedRank, markRank } from "./rank-bits.js";
import { scratchBits, scratchRows } from "./scratch.js";
import type { LossColumns, RowRange } from "./snapshot.js";

/** The rows of a run of losses (one NAICS key of a coverage) whose loss year passes the filter: one range, as years ascend. */
export function lossYearRange(columns: LossColumns, run: RowRange, years: LossYearFilter): RowRange {
  const { start, end } = run;
  if (years.kind === "any") return run;
  const [oldest, newest] = years.kind === "exact" ? [years.year, years.year] : [years.oldest, years.newest];
  return {
    start: oldest === undefined ? start : firstAbove(columns.year, start, end, oldest - 1),
    end: newest === undefined ? end : firstAbove(columns.year, start, end, newest),
  };
}

/**
 * The matched loss rows as cases in answer order (amount, then id), without a sort:
 * each row's rank in that order was computed at build, so the matched rows are marked
 * in a bit set over the coverage's ranks and their cases read back in rank order, in a
 * row (CaseColumns). O(matched + coverage / 32). The cases' bytes, rendered at build,
 * are listed run by run of consecutive cases (caseBytes), in the form an answer asks for.
 */
export function casesInOrder(columns: LossColumns, coverage: RowRange, rows: Uint32Array, count: number): LossCases {
  const size = coverage.end - coverage.start;
  const bits = scratchBits(size);
  const { rank, caseId, caseAmount } = columns;
  for (let r = 0; r < count; r++) markRank(bits, rank[rows[r]!]!);
  const places = markedPlaces(bits, size, coverage.start, scratchRows("gathered", count));
  const amounts = new Float64Array(count);
  for (let i = 0; i < count; i++) amounts[i] = caseAmount[places[i]!]!;
  // Made later, from the places (out of the scratch space) and the columns, which
  // outlive the snapshot's release (release-snapshot.ts): an answer that writes the
  // rendered bytes never reads the ids, and megabytes made per answer and dropped set
  // the pace of the collector's full collections.
  const kept = places.slice(0, count);
  const { caseJson, caseJsonStart, caseProto, caseProtoStart } = columns;
  let ids: Float64Array | undefined;
  return {
    get ids() {
      ids ??= Float64Array.from(kept, (place) => caseId[place]!);
      return ids;
    },
    amounts,
    rendered: {
      // Each JSON item starts with the comma that joins it to the one before.
      json: (newPiece) => caseBytes(caseJson, caseJsonStart, kept, 1, newPiece),
      protobuf: (newPiece) => caseBytes(caseProto, caseProtoStart, kept, 0, newPiece),
    },
  };
}

/** The places (`start` plus the rank) of the ranks marked in `bits`, ascending, into `out`. */
function markedPlaces(bits: Uint32Array, size: number, start: number, out: Uint32Array): Uint32Array {
  let n = 0;
  forEachMarkedRank(bits, size, (k) => (out[n++] = start + k));
  return out;
}

/**
 * A run of cases this long or longer is listed as a view of the snapshot's bytes, not
 * copied; shorter runs are copied together into pieces (of 64 KiB: rendered-lists.ts),
 * few to write, each of them full.
 */
const LONG_RUN = 4096;

/**
 * The bytes of the cases at `places` (ascending), less the first `skip` bytes: long runs
 * of consecutive cases as views of the snapshot's bytes (which release-snapshot.ts
 * leaves to the garbage collector, so that an answer being written keeps them), short
 * ones copied together. Every piece starts and ends at a case's edge. Copying is the
 * cost: some 2 ns a byte in a loop, against 0.1 for memcpy, so only the shortest runs
 * (a case or two) are copied in a loop. Each piece copied into comes from `newPiece`.
 */
function caseBytes(bytes: Uint8Array, starts: Uint32Array, places: Uint32Array, skip: number, newPiece: NewPiece) {
  const count = places.length;
  const pieces: Uint8Array[] = [];
  let piece = new Uint8Array(0);
  let pieceStart = 0;
  let at = 0;
  for (let i = 0; i < count;) {
    const first = places[i]!;
    let last = first;
    while (++i < count && places[i] === last + 1) last++;
    const from = starts[first]! + (first === places[0] ? skip : 0);
    const to = starts[last + 1]!;
    const long = to - from >= LONG_RUN;
    if (long || at + (to - from) > piece.length) {
      // The copies so far are a piece; a long run is one of its own.
      if (at > pieceStart) pieces.push(piece.subarray(pieceStart, at));
      pieceStart = at;
      if (long) {
        pieces.push(bytes.subarray(from, to));
        continue;
      }
      piece = newPiece();
      pieceStart = at = 0;
    }
    at = copyBytes(bytes, from, to, piece, at);
  }
  if (at > pieceStart) pieces.push(piece.subarray(pieceStart, at));
  return pieces;
}

/** Runs shorter than this are copied byte by byte: a view to copy from costs more than they do. */
const SHORT_COPY = 128;

/** Copies bytes `from` to `to` into `out` at `at`; where they end. */
function copyBytes(bytes: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  if (to - from >= SHORT_COPY) {
    out.set(bytes.subarray(from, to), at);
    return at + (to - from);
  }
  for (let b = from; b < to; b++) out[at++] = bytes[b]!;
  return at;
}
