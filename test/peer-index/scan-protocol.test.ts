// The claim word both threads take a trend's periods through (src/peer-index/scan-protocol.ts):
// each period is taken once, the scan thread joins only while periods are left, and a
// job's word answers no other job.
import t from "tap";
import { CONTROL_WORDS, claimPart, joinClaims, openClaims, threadJoined } from "../../src/peer-index/scan-protocol.js";

const controlWords = () => new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * 4));

t.test("periods are taken once each, in order, by either side", async (t) => {
  const control = controlWords();
  openClaims(control, 7, 4);
  t.notOk(threadJoined(control), "a new job has no thread in it");
  t.equal(claimPart(control, 7, 4), 0);
  t.same(joinClaims(control, 7, 4, true), { joined: true, taken: 1 }, "the thread joins, taking the next");
  t.ok(threadJoined(control));
  t.equal(claimPart(control, 7, 4), 2);
  t.equal(claimPart(control, 7, 4), 3);
  t.equal(claimPart(control, 7, 4), -1, "then none is left");
  t.equal(claimPart(control, 7, 4), -1);
  t.ok(threadJoined(control), "and the thread is still in it: its answer is awaited");
});

t.test("the thread cannot join once no period is left", async (t) => {
  const control = controlWords();
  openClaims(control, 1, 2);
  claimPart(control, 1, 2);
  claimPart(control, 1, 2);
  t.same(joinClaims(control, 1, 2, true), { joined: false, taken: -1 });
  t.notOk(threadJoined(control), "so no answer is awaited");
});

t.test("joining without taking: the thread holds another snapshot", async (t) => {
  const control = controlWords();
  openClaims(control, 3, 2);
  t.same(joinClaims(control, 3, 2, false), { joined: true, taken: -1 });
  t.equal(claimPart(control, 3, 2), 0, "every period is left to the server thread");
  t.equal(claimPart(control, 3, 2), 1);
  t.ok(threadJoined(control));
});

t.test("a job's word answers no other job", async (t) => {
  const control = controlWords();
  openClaims(control, 5, 3);
  openClaims(control, 6, 3);
  t.equal(claimPart(control, 5, 3), -1, "the job before: nothing to take");
  t.same(joinClaims(control, 5, 3, true), { joined: false, taken: -1 }, "nor to join");
  t.equal(claimPart(control, 6, 3), 0, "the job under way starts at its first period");
  t.notOk(threadJoined(control), "a new job starts with no thread in it");
  // The word holds an id's low 22 bits: ids wrap there (4M jobs apart, never both under way).
  openClaims(control, 2 ** 22 + 9, 3);
  t.equal(claimPart(control, 9, 3), 0, "ids are compared by their low 22 bits");
});

t.test("at most 255 periods a job", async (t) => {
  t.throws(() => openClaims(controlWords(), 1, 256), RangeError);
  t.doesNotThrow(() => openClaims(controlWords(), 1, 255));
});
