import { createHash } from "node:crypto";
import { toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import {
  LossDetailsService,
  PostLimitAdequacyDataResponseSchema,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { EVERY_SECTOR_GROUP } from "../helpers/next-import.js";
import { GetCompanyResponseSchema } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";

const P = "/commercialpolicybenchmark/v2.0";

/** One answer as a caller saw it. */
export interface Outcome {
  /** The request, by name: the same name always sends the same request. */
  request: string;
  protocol: "rest" | "grpc";
  /** Whether it needs the database (a lookup) or may be answered from a replica's memory. */
  needsDatabase: boolean;
  at: number;
  /** HTTP status, or the gRPC code's name ("ok" for success). */
  status: number | string;
  /** A 503's Retry-After (REST). */
  retryAfter?: string | null;
  /** The answer's dataset version header or metadata. */
  version?: string | null;
  /** sha256 of the answer's body (REST) or message (gRPC). */
  hash?: string;
  /** A network error: no answer at all. */
  error?: string;
}

interface Call {
  request: string;
  needsDatabase: boolean;
  run(): Promise<Omit<Outcome, "request" | "needsDatabase" | "at">>;
}

/** Lookups of a different record each time: a kept answer must not hide that the database is away. */
let lookup = 0;
const nextLookup = () => ++lookup;

const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("base64url");

/** REST calls, GET and POST, analytics and lookups; HTTP/1.1 to the balancer, which speaks HTTP/2 to the replicas. */
function restCalls(base: string, authorization: string): Call[] {
  const rest = (request: string, needsDatabase: boolean, path: string | (() => string), body?: object): Call => ({
    request,
    needsDatabase,
    async run() {
      const target = typeof path === "string" ? path : path();
      const res = await fetch(`${base}${P}/${target}`, {
        method: body ? "POST" : "GET",
        headers: { authorization, ...(body ? { "content-type": "application/json" } : {}) },
        body: body && JSON.stringify(body),
      });
      const text = await res.text();
      return {
        protocol: "rest",
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        version: res.headers.get("cpb-dataset-version"),
        hash: sha(text),
      };
    },
  });
  return [
    rest("POST limit adequacy", false, "lossdetails/getlimitadequacydata", {
      ...EVERY_SECTOR_GROUP,
      clientLimit: 5_000_000,
    }),
    rest("POST assessment", false, "assessment/getassessmentdata", { ...EVERY_SECTOR_GROUP, limit: 5e6, premium: 5e4 }),
    rest("POST trend", false, "trend/getmarkettrend", { ...EVERY_SECTOR_GROUP, periodMonths: 6, periods: 4 }),
    rest(
      "GET assessment",
      false,
      "assessment/getassessmentdata?naics=52&coverageId=1&exposureRangeLow=0&exposureRangeHigh=1000000000000&limit=5000000&premium=50000",
    ),
    rest("GET company", true, () => `company/${1 + (nextLookup() % 3000)}`),
    rest("GET loss", true, () => `lossdetails/${1 + (nextLookup() % 4000)}`),
    rest(
      "GET search",
      true,
      () => `company?$filter=${encodeURIComponent("startswith(CompanyName,'C')")}&$top=5&$skip=${nextLookup()}`,
    ),
  ];
}

/** gRPC over h2c to the balancer. */
function grpcCalls(base: string, authorization: string): Call[] {
  const transport = createGrpcTransport({ baseUrl: base });
  const companies = createClient(CompanyService, transport);
  const losses = createClient(LossDetailsService, transport);
  const grpc = <T>(
    request: string,
    needsDatabase: boolean,
    call: (options: object) => Promise<T>,
    bytes: (answer: T) => Uint8Array,
  ): Call => ({
    request,
    needsDatabase,
    async run() {
      let version: string | null = null;
      try {
        const answer = await call({
          headers: { authorization },
          timeoutMs: 20_000,
          onHeader: (header: Headers) => (version = header.get("cpb-dataset-version")),
        });
        return { protocol: "grpc", status: "ok", version, hash: sha(bytes(answer)) };
      } catch (error) {
        const { code, rawMessage } = ConnectError.from(error);
        return { protocol: "grpc", status: Code[code].toLowerCase(), version, error: rawMessage };
      }
    },
  });
  return [
    grpc(
      "gRPC limit adequacy",
      false,
      (options) => losses.postLimitAdequacyData({ ...EVERY_SECTOR_GROUP, clientLimit: 5_000_000 }, options),
      (answer) => toBinary(PostLimitAdequacyDataResponseSchema, answer),
    ),
    grpc(
      "gRPC company",
      true,
      (options) => companies.getCompany({ id: BigInt(1 + (nextLookup() % 3000)) }, options),
      (answer) => toBinary(GetCompanyResponseSchema, answer),
    ),
  ];
}

export interface MixedLoad {
  /** Every outcome so far, in the order they came. */
  readonly outcomes: readonly Outcome[];
  stop(): Promise<void>;
}

/**
 * A steady mixed load through the balancer: `clients` loops, each sending the calls in
 * turn (REST GET and POST, lookups, search, gRPC), one at a time. A 503 with
 * Retry-After is waited out as a polite client does; a gRPC `unavailable` waits a second.
 */
export function startMixedLoad(base: string, authorization: string, clients = 6): MixedLoad {
  const calls = [...restCalls(base, authorization), ...grpcCalls(base, authorization)];
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let i = client; running; i++) {
      const call = calls[i % calls.length]!;
      const at = performance.now();
      let seen: Omit<Outcome, "request" | "needsDatabase" | "at">;
      try {
        seen = await call.run();
      } catch (error) {
        seen = { protocol: call.request.startsWith("gRPC") ? "grpc" : "rest", status: 0, error: String(error) };
      }
      outcomes.push({ request: call.request, needsDatabase: call.needsDatabase, at, ...seen });
      const wait =
        seen.status === 503 && seen.retryAfter
          ? Number(seen.retryAfter) * 1000
          : seen.status === "unavailable"
            ? 1000
            : 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
