/**
 * Whether a request arrived since last asked: turns (load-control/turns.ts) wait for an
 * iteration of the event loop that read none, as they wait for one that accepted no
 * connection (new-connections.ts). One reader.
 *
 * A burst of callers connects, then sends. Their connections are accepted one per loop
 * iteration, turns waiting meanwhile; their requests then come in over the next
 * iterations, as fast as the callers write them. Had a turn of tens of milliseconds run
 * between two of them, every request behind it would have waited that long to be read,
 * the refusals among them too. A request is read, checked and admitted or refused in
 * well under a millisecond, so taking the burst in first costs the turns little; and a
 * steady stream of requests cannot hold them longer than turns.ts allows.
 */
export function requestArrivals(): { arrived(): void; arrivedSinceAsked(): boolean } {
  let arrived = 0;
  let seen = 0;
  return {
    arrived: () => void arrived++,
    arrivedSinceAsked() {
      const since = arrived !== seen;
      seen = arrived;
      return since;
    },
  };
}
