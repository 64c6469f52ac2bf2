// gRPC as other languages' clients expect it (issue 49):
// - a refusal made before any answer (here the admission gate's) goes out trailers-only,
//   one HEADERS frame that ends the stream, with grpc-retry-pushback-ms: the only kind of
//   answer a gRPC client's retry policy retries (gRPC A6);
// - so grpc-js with a standard retryPolicy turns a refusal storm into successes;
// - a call of a procedure nobody serves is `unimplemented`, naming it, on gRPC, gRPC-Web
//   and Connect, not the REST face's 404 page.
import http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { create, toBinary } from "@bufbuild/protobuf";
import t from "tap";
import { ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { RetryInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import {
  LossDetailsService,
  PostLimitAdequacyDataRequestSchema,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { FIXTURE_AS_OF, FIXTURE_GROUP_A, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { startTestServer } from "../helpers/server.js";

const LIMIT_ADEQUACY = LossDetailsService.method.postLimitAdequacyData;
const REQUEST = { ...FIXTURE_GROUP_A, clientLimit: 5_000_000 };
/** One peer-group call at a time and four waiting: a burst of twenty is mostly refused. */
const GATE = { concurrency: 1, maxQueue: 4, maxWaitMs: 5_000 };

/** A gRPC call sent by hand, to see the frames: the response head, whether it ended the stream, any trailers. */
function rawGrpcCall(session: http2.ClientHttp2Session, path: string, message: Uint8Array) {
  return new Promise<{ head: http2.IncomingHttpHeaders; endedAtHead: boolean; trailers?: http2.IncomingHttpHeaders }>(
    (resolve, reject) => {
      const stream = session.request({
        ":method": "POST",
        ":path": path,
        "content-type": "application/grpc",
        te: "trailers",
      });
      let answer: { head: http2.IncomingHttpHeaders; endedAtHead: boolean; trailers?: http2.IncomingHttpHeaders };
      stream.on(
        "response",
        (head, flags) => (answer = { head, endedAtHead: (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0 }),
      );
      stream.on("trailers", (trailers) => (answer.trailers = trailers));
      stream.on("data", () => {});
      stream.on("end", () => resolve(answer));
      stream.on("error", reject);
      const frame = Buffer.alloc(5 + message.length);
      frame.writeUInt32BE(message.length, 1);
      frame.set(message, 5);
      stream.end(frame);
    },
  );
}

t.test("a refusal before any answer is trailers-only, with the pushback", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF, admission: GATE });
  const session = http2.connect(server.url);
  t.teardown(() => session.close());
  const message = toBinary(PostLimitAdequacyDataRequestSchema, create(PostLimitAdequacyDataRequestSchema, REQUEST));
  const path = `/${LossDetailsService.typeName}/${LIMIT_ADEQUACY.name}`;
  const answers = await Promise.all(Array.from({ length: 20 }, () => rawGrpcCall(session, path, message)));
  const refused = answers.filter((a) => (a.head["grpc-status"] ?? a.trailers?.["grpc-status"]) === "14");
  const answered = answers.filter((a) => a.trailers?.["grpc-status"] === "0");
  t.ok(refused.length >= 10, `refused: ${refused.length} of 20`);
  t.equal(answered.length + refused.length, 20, `the rest answered (${answered.length})`);
  t.ok(
    refused.every((a) => a.endedAtHead && a.trailers === undefined),
    "every refusal is one HEADERS frame that ends the stream, with no trailers",
  );
  t.ok(
    refused.every((a) => a.head["grpc-retry-pushback-ms"] === String(Number(a.head["retry-after"]) * 1000)),
    `with grpc-retry-pushback-ms (${refused[0]?.head["grpc-retry-pushback-ms"]}), as Retry-After says`,
  );
  t.match(refused[0]?.head, { "content-type": "application/grpc", "grpc-message": /at%20capacity/ });
  t.ok(
    answered.every((a) => !a.endedAtHead),
    "answers keep their message and trailers",
  );

  // The standard detail too, for tools that read details rather than headers.
  const connectClient = createClient(LossDetailsService, createGrpcTransport({ baseUrl: server.url }));
  const errors = await Promise.all(
    Array.from({ length: 20 }, () =>
      connectClient.postLimitAdequacyData(REQUEST).then(() => undefined, ConnectError.from),
    ),
  );
  const retryInfos = errors.filter((e) => e !== undefined).map((e) => e.findDetails(RetryInfoSchema)[0]);
  t.ok(retryInfos.length >= 10, `refused again: ${retryInfos.length}`);
  t.ok(
    retryInfos.every((info) => info !== undefined && info.retryDelay!.seconds >= 1n),
    "each refusal carries google.rpc.RetryInfo with its delay",
  );
});

t.test("grpc-js with a standard retry policy turns a refusal storm into successes", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF, admission: GATE });
  const retrying = {
    "grpc.service_config": JSON.stringify({
      methodConfig: [
        {
          name: [{ service: LossDetailsService.typeName }],
          retryPolicy: {
            maxAttempts: 5,
            initialBackoff: "0.05s",
            maxBackoff: "1s",
            backoffMultiplier: 2,
            retryableStatusCodes: ["UNAVAILABLE"],
          },
        },
      ],
    }),
  };
  const storm = async (channelOptions: grpc.ChannelOptions) => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        callWithGrpcJs(server.url, LIMIT_ADEQUACY, REQUEST, {}, {}, channelOptions).then(
          () => "ok",
          (error: grpc.ServiceError) => grpc.status[error.code],
        ),
      ),
    );
    return outcomes.filter((o) => o === "ok").length;
  };
  const without = await storm({});
  const withPolicy = await storm(retrying);
  t.ok(without < 20, `without a retry policy: ${without} of 20 answered, the rest UNAVAILABLE`);
  t.equal(withPolicy, 20, "with the policy, every call answered in the end");
});

t.test("an unknown method or service is unimplemented, named, in every RPC protocol", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const unknownMethod = { ...LIMIT_ADEQUACY, name: "PostLimitAdequacyDatum" } as typeof LIMIT_ADEQUACY;
  const unknownService = {
    ...LIMIT_ADEQUACY,
    parent: { ...LossDetailsService, typeName: "commercialpolicybenchmark.v2.LossService" },
  } as typeof LIMIT_ADEQUACY;
  for (const [method, named] of [
    [unknownMethod, /LossDetailsService has no method PostLimitAdequacyDatum; it has .*GetLossDetails/],
    [unknownService, /no service commercialpolicybenchmark\.v2\.LossService/],
  ] as const) {
    const error = await callWithGrpcJs(server.url, method, REQUEST).catch((e: grpc.ServiceError) => e);
    t.match(error, { code: grpc.status.UNIMPLEMENTED, details: named }, `gRPC (grpc-js): ${named}`);
  }
  const path = "/commercialpolicybenchmark.v2.LossDetailsService/PostLimitAdequacyDatum";
  const connect = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  t.equal(connect.status, 404, "Connect: 404, its mapping of unimplemented");
  t.match(await connect.json(), { code: "unimplemented", message: /has no method PostLimitAdequacyDatum/ });
  const web = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/grpc-web+proto" },
    body: new Uint8Array(5),
  });
  t.equal(web.status, 200);
  t.equal(web.headers.get("grpc-status"), "12", "gRPC-Web: trailers-only unimplemented");
  const rest = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/nothing`);
  t.equal(rest.status, 404, "a REST path nobody serves is still the REST face's 404");
  t.match(rest.headers.get("content-type"), /problem\+json/);
});
