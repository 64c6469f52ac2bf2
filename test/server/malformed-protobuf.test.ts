// A request body that is not valid protobuf is the caller's mistake: invalid_argument
// in every protocol (connect-es alone would say internal, a 500 over Connect), with no
// parser internals in the message; a valid body through the same handlers still works.
import http2 from "node:http2";
import t from "tap";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";

const PATH = "/commercialpolicybenchmark.v2.CompanyService/GetCompany";
const MESSAGE = "the request body is not a valid commercialpolicybenchmark.v2.GetCompanyRequest message";
/** Field 1, length-delimited, 5 bytes long, of which 1 is there. */
const TRUNCATED = Uint8Array.of(0x0a, 0x05, 0x01);
/** Field 1 (the id), varint 7. */
const VALID = Uint8Array.of(0x08, 0x07);

/** A gRPC or gRPC-Web frame around a message. */
function frame(message: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

t.test("Connect: 400 invalid_argument, not a 500", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const post = (body: Uint8Array) =>
    fetch(`${server.url}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/proto", "connect-protocol-version": "1" },
      body,
    });
  const bad = await post(TRUNCATED);
  t.equal(bad.status, 400);
  t.same(await bad.json(), { code: "invalid_argument", message: MESSAGE });
  const good = await post(VALID);
  t.equal(good.status, 404, "a valid body reaches the service (no company 7 in an empty database)");
});

t.test("gRPC: grpc-status 3 in the trailers", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const session = http2.connect(server.url);
  t.teardown(() => session.close());
  const call = (body: Uint8Array) =>
    new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      const stream = session.request({
        ":method": "POST",
        ":path": PATH,
        "content-type": "application/grpc",
        te: "trailers",
      });
      let status: http2.IncomingHttpHeaders = {};
      stream.on("response", (headers) => (status = headers)); // a trailers-only answer
      stream.on("trailers", (trailers) => (status = trailers));
      stream.on("data", () => {});
      stream.on("end", () => resolve(status));
      stream.on("error", reject);
      stream.end(frame(body));
    });
  const bad = await call(TRUNCATED);
  t.equal(bad["grpc-status"], "3");
  t.equal(decodeURIComponent(String(bad["grpc-message"])), MESSAGE);
  t.equal((await call(VALID))["grpc-status"], "5", "a valid body reaches the service: not_found");
});

t.test("gRPC-Web: grpc-status 3, trailers-only (in the headers, no body)", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const call = async (body: Uint8Array) => {
    const res = await fetch(`${server.url}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto" },
      body: frame(body),
    });
    t.equal((await res.arrayBuffer()).byteLength, 0, "no body: the status is in the headers");
    return {
      status: res.headers.get("grpc-status"),
      message: decodeURIComponent(res.headers.get("grpc-message") ?? ""),
    };
  };
  const bad = await call(TRUNCATED);
  t.equal(bad.status, "3");
  t.match(bad.message, MESSAGE);
  t.notMatch(bad.message, /parse binary|EOF/);
  t.equal((await call(VALID)).status, "5", "a valid body reaches the service");
});
