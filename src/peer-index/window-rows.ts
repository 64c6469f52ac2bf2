import type { TimeWindow } from "../benchmark/time-window.js";
import { dayNumber } from "./day-number.js";
import { firstAbove } from "./peer-filter.js";
import type { RowRange } from "./snapshot.js";

/** A window as day numbers: after `after`, up to `until` (SEMANTICS.md section 2: start < day <= end). */
export interface WindowDays {
  after: number;
  until: number;
}

export function windowDays(window: TimeWindow): WindowDays {
  return { after: dayNumber(window.start), until: dayNumber(window.end) };
}

/** The rows of a NAICS key's run (sorted by day) inside a window: one range. */
export function rowsInWindow(day: Int32Array, { start, end }: RowRange, { after, until }: WindowDays): RowRange {
  return { start: firstAbove(day, start, end, after), end: firstAbove(day, start, end, until) };
}
