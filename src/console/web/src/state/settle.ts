/**
 * Changes to the same inputs this close together are one change still settling (arrowing
 * through a select fires a change per option): they replace the last history entry
 * instead of adding one each (issue 27, item 6).
 */
// Its own module, free of Preact: the browser tests import it without the DOM's types.
export const SETTLE_MS = 1_500;
