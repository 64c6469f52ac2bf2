// Deadlines and cancellation stop work (issue 49), on every protocol: a call whose
// caller's deadline passes (grpc-timeout, connect-timeout-ms) or who goes away while
// its computation waits for its turn on the event loop is abandoned at that turn, and
// its log line says deadline_exceeded or canceled, never ok. Other turns, 20 ms each
// and queued before the call, hold the loop as a broad peer group's computations do.
import { create, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { status as GrpcStatus } from "@grpc/grpc-js";
import t from "tap";
import {
  LossDetailsService,
  PostLimitAdequacyDataRequestSchema,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { inTurn } from "../../src/load-control/turns.js";
import { FIXTURE_AS_OF, FIXTURE_GROUP_A, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { startPeerIndex } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";

const REQUEST = { ...FIXTURE_GROUP_A, clientLimit: 5_000_000 };
const PROCEDURE = `/${LossDetailsService.typeName}/${LossDetailsService.method.postLimitAdequacyData.name}`;
const TURN_MS = 20;
const DEADLINE_MS = 40;

/** Turns that keep the event loop `count` × TURN_MS, one per loop iteration, queued now. */
function holdTheLoop(count: number): Promise<unknown> {
  const turn = () => {
    const until = performance.now() + TURN_MS;
    while (performance.now() < until);
  };
  return Promise.all(Array.from({ length: count }, () => inTurn(turn)));
}

t.test("a call whose caller no longer waits is abandoned at its turn, on every protocol", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const peerIndex = await startPeerIndex(t, knex, url);
  const logLines: { requestId?: string; msg?: string; code?: string; status?: number }[] = [];
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF, peerIndex, logLines });
  const message = toBinary(PostLimitAdequacyDataRequestSchema, create(PostLimitAdequacyDataRequestSchema, REQUEST));
  const lineOf = async (requestId: string) => {
    for (let i = 0; i < 200; i++) {
      const line = logLines.find((l) => l.requestId === requestId && l.msg === "request");
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return undefined;
  };

  await t.test("gRPC: grpc-timeout", async (t) => {
    // A channel already connected, as a service's is: the call must reach the server in time.
    const channel = new grpc.Client(server.url.replace(/^http:\/\//, ""), grpc.credentials.createInsecure());
    t.teardown(() => channel.close());
    const call = (requestId: string, deadline: number) =>
      new Promise<number>((resolve) => {
        const metadata = new grpc.Metadata();
        metadata.set("x-request-id", requestId);
        channel.makeUnaryRequest(
          PROCEDURE,
          (bytes: Buffer) => bytes,
          (bytes: Buffer) => bytes,
          Buffer.from(message),
          metadata,
          { deadline },
          (error) => resolve(error ? error.code : GrpcStatus.OK),
        );
      });
    t.equal(await call("grpc-warm", Date.now() + 10_000), GrpcStatus.OK);
    const held = holdTheLoop(12);
    const code = await call("grpc-deadline", Date.now() + DEADLINE_MS);
    await held;
    t.equal(code, GrpcStatus.DEADLINE_EXCEEDED);
    t.match(await lineOf("grpc-deadline"), { code: /^(deadline_exceeded|canceled)$/ }, "not logged as ok");
  });

  await t.test("gRPC-Web: grpc-timeout", async (t) => {
    const held = holdTheLoop(12);
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, 5);
    const answer = await fetch(`${server.url}${PROCEDURE}`, {
      method: "POST",
      headers: {
        "content-type": "application/grpc-web+proto",
        "grpc-timeout": `${DEADLINE_MS}m`,
        "x-request-id": "grpc-web-deadline",
      },
      body: frame,
    });
    await answer.arrayBuffer();
    await held;
    t.equal(answer.headers.get("grpc-status"), "4", "deadline_exceeded, trailers-only");
    t.match(await lineOf("grpc-web-deadline"), { code: "deadline_exceeded" });
  });

  await t.test("Connect: connect-timeout-ms", async (t) => {
    const held = holdTheLoop(12);
    const answer = await fetch(`${server.url}${PROCEDURE}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "connect-timeout-ms": String(DEADLINE_MS),
        "x-request-id": "connect-deadline",
      },
      body: JSON.stringify(REQUEST),
    });
    await held;
    t.equal(answer.status, 504);
    t.match(await answer.json(), { code: "deadline_exceeded" });
    t.match(await lineOf("connect-deadline"), { code: "deadline_exceeded" });
  });

  await t.test("REST: the caller goes away", async (t) => {
    const held = holdTheLoop(12);
    const abort = new AbortController();
    const answer = fetch(`${server.url}/commercialpolicybenchmark/v2.0/lossdetails/getlimitadequacydata`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "rest-gone" },
      body: JSON.stringify(REQUEST),
      signal: abort.signal,
    });
    setTimeout(() => abort.abort(), DEADLINE_MS);
    await t.rejects(answer);
    await held;
    t.match(await lineOf("rest-gone"), { code: "canceled" });
  });

  await t.test("a deadline with room to spare is answered", async (t) => {
    const answer = await callWithGrpcJs(
      server.url,
      LossDetailsService.method.postLimitAdequacyData,
      REQUEST,
      { "x-request-id": "grpc-in-time" },
      { deadline: Date.now() + 10_000 },
    );
    t.ok(answer.limitAdequacy, "answered");
    t.match(await lineOf("grpc-in-time"), { code: "ok" });
  });
});
