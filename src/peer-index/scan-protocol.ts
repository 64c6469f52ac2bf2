/**
 * What the server thread and the scan thread (scan-thread.ts, scan-thread-body.ts) say to
 * each other: the messages on their port and the shared control words.
 */
import type { RowFilter } from "./peer-filter.js";
import type { PeriodPrograms, PeriodRanges, ProgramSnapshot } from "./period-programs.js";

/** A message to the scan thread: the snapshot it is handed (its program columns shared, not copied), or a job. */
export type ScanMessage =
  | { kind: "snapshot"; snapshot: ProgramSnapshot }
  | { kind: "periods"; id: number; version: number; filter: RowFilter; periods: PeriodRanges[] };

/** The scan thread's answer to a "periods" message: undefined when it holds another snapshot. */
export interface ScanAnswer {
  id: number;
  periods: PeriodPrograms[] | undefined;
}

/**
 * Indexes into the control words: how many messages the server thread has posted, how
 * many answers the scan thread has, and whether the thread has started (1): until it
 * has (its module loads in tens of milliseconds, through tsx in seconds), it gets no job.
 */
export const POSTED = 0;
export const ANSWERED = 1;
export const STARTED = 2;
