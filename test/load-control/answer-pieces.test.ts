// Answer pieces: lent, given back once written, lent again; never anything else taken in.
// Over the real server: a limit adequacy's copied cases come back to the pool after an
// HTTP/1.1 answer, the reused pieces write the same bytes, answers compressed and written
// at once each keep their own (giving back before the answer is written fails this, checked),
// and an answer the cache keeps keeps its pieces.
import t from "tap";
import type { Knex } from "knex";
import { AnswerPieces, answerPieces } from "../../src/load-control/answer-pieces.js";
import { FIXTURE_AS_OF, FIXTURE_GROUP_A, insertAnalyticsFixture, lossRow } from "../fixtures/analytics-fixture.js";
import { createTestDatabase } from "../helpers/database.js";
import { startPeerIndex, waitFor } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";

t.test("a pool lends pieces and takes back only its own, once", async (t) => {
  const pool = new AnswerPieces(16, 2);
  const first = pool.lend();
  t.equal(first.length, 16, "a piece is of the pool's size");
  t.ok(pool.holdsLent([new Uint8Array(4), first.subarray(2, 3)]), "a view of a lent piece is seen among chunks");
  t.notOk(pool.holdsLent([new Uint8Array(16)]), "and chunks of no lent piece are not");
  pool.giveBack([first.subarray(0, 4), first.subarray(4, 9), new Uint8Array(16), Buffer.from("not lent")]);
  t.equal(pool.freeCount(), 1, "two views of one piece give it back once; buffers never lent are ignored");
  pool.giveBack([first]);
  t.equal(pool.freeCount(), 1, "a piece given back twice is taken once");
  t.equal(pool.lend().buffer, first.buffer, "a piece given back is lent again");
  const lent = [pool.lend(), pool.lend(), pool.lend()];
  pool.giveBack(lent);
  t.equal(pool.freeCount(), 2, "no more than keepAtMost wait to be lent again");
});

/** NAICS 52 and 54 companies' losses alternate by amount: group A's cases are runs of one, copied into pieces. */
async function insertAlternatingLosses(knex: Knex, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) =>
    lossRow(1000 + i, i % 2 === 0 ? 1 : 4, 11, "2025-03-01", "2025-04-01", 10_000 + i),
  );
  await knex.batchInsert("loss_events", rows, 1000);
  await knex("dataset_version").increment("version", 1);
}

const GROUP_A = { ...FIXTURE_GROUP_A, clientLimit: 50_000 };

t.test("REST limit adequacy gives its pieces back once written", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  await insertAlternatingLosses(knex, 40_000);
  const peerIndex = await startPeerIndex(t, knex, url);
  const limitAdequacy = async (server: { url: string }, body: object, encoding = "identity") => {
    const res = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/lossdetails/getlimitadequacydata`, {
      method: "POST",
      headers: { "accept-encoding": encoding },
      body: JSON.stringify(body),
    });
    t.equal(res.status, 200);
    if (encoding !== "identity") t.equal(res.headers.get("content-encoding"), encoding, `compressed (${encoding})`);
    return res.text();
  };

  t.test("without an answer cache", async (t) => {
    const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF, peerIndex });
    const before = answerPieces.freeCount();
    const first = await limitAdequacy(server, GROUP_A);
    const cases = (JSON.parse(first) as { listOfCases: unknown[] }).listOfCases;
    t.ok(cases.length >= 20_000, `the group lists every other case (${cases.length})`);
    await waitFor(() => answerPieces.freeCount() > before, "the answer's pieces back in the pool");
    const returned = answerPieces.freeCount();
    t.ok(returned - before >= 2, `the answer's pieces came back (${returned - before})`);
    for (let i = 0; i < 3; i++) {
      t.equal(
        await limitAdequacy(server, GROUP_A),
        first,
        `answered again from reused pieces: the same bytes (${i + 1})`,
      );
    }
    await waitFor(() => answerPieces.freeCount() === returned, "the reused pieces back again");
    t.equal(answerPieces.freeCount(), returned, "pieces are reused, not made anew");

    // At once, compressed, two groups' answers in turn (NAICS 52's
    // cases and 54's, the other half): a piece given back before its answer was
    // compressed and written would be copied into by the other group's meanwhile.
    const other = { ...GROUP_A, naics: ["54"] };
    const expected = [first, await limitAdequacy(server, other)];
    const bodies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => limitAdequacy(server, i % 2 === 0 ? GROUP_A : other, "gzip")),
    );
    t.ok(expected[0] !== expected[1], "the two groups list different cases");
    t.ok(
      bodies.every((body, i) => body === expected[i % 2]),
      "eight answers written at once from shared pieces: each its own bytes",
    );
  });

  t.test("an answer the cache keeps keeps its pieces", async (t) => {
    const server = await startTestServer(t, knex, {
      asOf: FIXTURE_AS_OF,
      peerIndex,
      datasetVersion: () => 2,
      answerCacheBytes: 8 * 1024 * 1024,
    });
    // Pieces in the pool, whatever ran before: the answer takes its own from them.
    answerPieces.giveBack(Array.from({ length: 8 }, () => answerPieces.lend()));
    const before = answerPieces.freeCount();
    const answer = await limitAdequacy(server, { ...GROUP_A, clientLimit: 60_000 });
    // A second request proves the first has finished; then nothing of the kept one came back.
    await limitAdequacy(server, { ...GROUP_A, clientLimit: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.ok(before - answerPieces.freeCount() >= 2, "the kept answer's pieces stay lent");
    t.equal(await limitAdequacy(server, { ...GROUP_A, clientLimit: 60_000 }), answer, "and the kept bytes are intact");
  });
});
