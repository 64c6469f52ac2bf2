import { Code, createContextValues, type ConnectRouter } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, connectNodeAdapter } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import type { Knex } from "knex";
import type { Logger } from "pino";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { PeerGroupService } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { ReferenceService } from "../../gen/commercialpolicybenchmark/v2/reference_pb.js";
import { MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";
import { Health } from "../../gen/health/v1/health_pb.js";
import { createAuthInterceptor, identify, recognize, type Authenticator } from "../auth/authenticator.js";
import { atCapacity, createAdmissionInterceptor } from "../rpc/admission-interceptor.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { NAMED_SERVICES } from "../metrics/operation-names.js";
import { API_SERVICES } from "../services/api-services.js";
import { describeServices } from "../services/reflection/descriptor-set.js";
import { createReflectionServices } from "../services/reflection/reflection-service.js";
import { createCors } from "./cors.js";
import { createApiReference } from "../pages/api-reference.js";
import { createFavicon } from "../pages/favicon.js";
import { createFrontPage } from "../pages/front-page.js";
import { CONSOLE_PATH, type ConsoleSite } from "../pages/console-site.js";
import { createStaticFile, type StaticFile } from "../pages/static-file.js";
import { openApiDocument } from "../openapi/openapi-document.js";
import { SERVICE_VERSION } from "../service-version.js";
import { relabelParseFailures } from "../rpc/parse-failures.js";
import { createErrorInterceptor } from "../rpc/error-interceptor.js";
import { createBindingProblemsInterceptor } from "../rpc/input-problems.js";
import { outsideAnyCall } from "../load-control/caller-watch.js";
import { requestInfoKey, requestInfoOf } from "../load-control/request-info.js";
import { withKeptAnswers } from "../rpc/kept-answers.js";
import { createResponseCaptureInterceptor } from "../rpc/response-capture.js";
import { todayUtc } from "../benchmark/time-window.js";
import { createAssessmentService } from "../services/assessment-service.js";
import { createCompanyService } from "../services/company-service.js";
import { createHealthService } from "../services/health-service.js";
import { createLossDetailsService } from "../services/loss-details-service.js";
import { createReferenceService } from "../services/reference-service.js";
import { createMarketTrendService } from "../services/market-trend-service.js";
import { bestSuggestion, createPeerGroupService } from "../services/peer-group-service.js";
import { writeJson, writeProblem, problem } from "../transcoding/problem-document.js";
import { COMPRESS_MIN_BYTES } from "../transcoding/compression.js";
import { createRestTranscoder } from "../transcoding/rest-handler.js";
import { requestPath } from "../transcoding/request-target.js";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { createIndexPeerEngine } from "../peer-index/index-engine.js";
import type { PeerIndex } from "../peer-index/peer-index.js";
import { createSqlPeerEngine } from "../store/sql-peer-engine.js";
import { describeRule, type DisclosureRule } from "../benchmark/disclosure-rule.js";
import { createDisclosureGuard } from "../services/disclosure-guard.js";
import { createAdmissionGate, GateRefusal, type GateOptions } from "../load-control/admission-gate.js";
import { createAnswerCache } from "../load-control/answer-cache.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import { watchEventLoopDelay } from "../load-control/event-loop-delay.js";
import { createReadiness } from "../load-control/readiness.js";
import { file_commercialpolicybenchmark_v2_errors } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { file_google_rpc_error_details } from "../../gen/google/rpc/error_details_pb.js";
import { answerErrorsTrailersOnly } from "../rpc/trailers-only.js";
import { answerUnknownProcedure } from "./unknown-procedure.js";
import { deferHeadOfGrpcAnswers } from "./deferred-head.js";
import { beginRequest } from "./request-log.js";

export interface AppDependencies {
  knex: Knex;
  authenticator: Authenticator;
  log: Logger;
  /** BENCHMARK_AS_OF: the fixed as-of date of time windows; today (UTC) per request when unset. */
  asOf?: string;
  /** The dataset version being served, as the version watcher last heard it. */
  datasetVersion?: () => number | undefined;
  /** What the version watcher waits for before it knows the version (for /readyz); undefined once it follows it. */
  datasetWaitingFor?: () => string | undefined;
  /** The in-memory peer index; without it, PostgreSQL answers every figure. */
  peerIndex?: PeerIndex;
  /** ANSWER_CACHE_MB in bytes: room for kept answers (ETags need none, only a dataset version). */
  answerCacheBytes?: number;
  /** ANALYTICS_CONCURRENCY, ANALYTICS_QUEUE, ANALYTICS_MAX_WAIT_MS: the admission gate of the peer-group calls. */
  admission?: GateOptions;
  /** Origins allowed to call from a browser (CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  /** DISCLOSURE_RULE: which peer groups are refused to keep contributors' programs confidential; none by default. */
  disclosure?: DisclosureRule;
  /** The tokens' issuer (AUTH_ISSUER) and required scopes, as /openapi.json states them. */
  tokens?: { issuer: string; scopes: readonly string[] };
  /** METRICS_PORT's metrics: told of the answer cache and the gate made here. */
  metrics?: AppMetrics;
  /** Whether the server is draining before it stops: /readyz then answers 503 at once. */
  draining?: () => boolean;
  /** The broker's console under /console/ (`cpb serve` and `cpb dev`); none in tests that do not ask for it. */
  console?: ConsoleSite;
  /** Other handlers on the same port under a path prefix (the dev identity provider). */
  mounts?: { prefix: string; handle: (req: NodeRequest, res: NodeResponse) => void }[];
}

/** The error details' files: in no service's imports, served by reflection so that tools decode the details. */
const ERROR_DETAIL_FILES = [file_commercialpolicybenchmark_v2_errors, file_google_rpc_error_details];

const MAX_BODY_BYTES = 1024 * 1024; // CONVENTIONS.md: bodies over 1 MiB get a 413

/** Tests and embedders that set no gate: as `cpb serve` does by default (config.ts). */
const DEFAULT_ADMISSION: GateOptions = { concurrency: 2, maxQueue: 64, maxWaitMs: 5_000 };

/** The calls that compute over a peer group: every assessment, limit adequacy, the market trend and the suggestions. Lookups and search are not. */
function computesOverPeers(service: string, method: string): boolean {
  if (service === MarketTrendService.typeName || service === PeerGroupService.typeName) return true;
  return (
    service === AssessmentService.typeName || (service === LossDetailsService.typeName && method !== "GetLossDetails")
  );
}
/**
 * One answer takes at most this share of the answer cache: a limit-adequacy answer of a
 * broad group is megabytes (2.9 MB at Advisen scale) and is the one most worth keeping,
 * but it must not empty the cache of every other answer.
 */
const MAX_ANSWER_SHARE = 1 / 8;
/** Answers over this are kept once asked for twice (answer-cache.ts, askedTwiceOver). */
const LARGE_ANSWER_BYTES = 256 * 1024;

/**
 * The request handler of the one port: every API service over gRPC, gRPC-Web and
 * Connect, the REST face of the spec as the adapter's fallback, and the health
 * endpoints. The same interceptors (errors, authentication) wrap every protocol.
 */
export function createApp({
  knex,
  authenticator,
  log,
  asOf,
  mounts = [],
  datasetVersion,
  datasetWaitingFor,
  peerIndex,
  answerCacheBytes = 0,
  draining,
  admission = DEFAULT_ADMISSION,
  corsOrigins = [],
  disclosure = { kind: "none" },
  tokens,
  metrics,
  console: consoleSite,
}: AppDependencies) {
  const asOfDate = () => asOf ?? todayUtc();
  const readiness = createReadiness(knex, { authenticator, peerIndex, datasetWaitingFor, draining });
  // Contributors are counted only when a rule reads them: under none, no answer costs more.
  const contributors = disclosure.kind !== "none";
  const sqlEngine = createSqlPeerEngine(knex, { contributors });
  const peerEngine = peerIndex
    ? createIndexPeerEngine(() => peerIndex.current(), sqlEngine, {
        contributors,
        disclosure,
        scanThread: peerIndex.scanThread(),
      })
    : sqlEngine;
  // A refusal names the best wider group (SEMANTICS.md section 14), counted only then.
  const disclosureGuard = createDisclosureGuard(disclosure, log, (group) =>
    bestSuggestion(peerEngine, disclosure, asOfDate(), group),
  );
  const eventLoopDelay = watchEventLoopDelay();
  const gate = createAdmissionGate(admission);
  const cors = createCors(corsOrigins);
  // What a person or a tool reads without a token: the front page and the API reference.
  const pages = new Map<string, StaticFile>([
    ["/", createFrontPage({ console: consoleSite?.built ? `${CONSOLE_PATH}/` : undefined })],
    ...createApiReference(),
    ...createFavicon(),
  ]);
  const apiServices = API_SERVICES;
  let handlers: UniversalHandler[] = [];
  const contextValues = (req: NodeRequest) => createContextValues().set(requestInfoKey, requestInfoOf(req));

  // The data answers are read from: the dataset version the watcher heard, the peer
  // snapshot answering (it lags the version during a rebuild), and the as-of date; and
  // the disclosure rule, so that an answer given under one rule is no 304 under another.
  const ruleTag =
    disclosure.kind === "none"
      ? ""
      : `.${disclosure.minCompanies}-${disclosure.maxTopTwoShareBasisPoints}-${disclosure.maxSourceShareBasisPoints}`;
  const dataTag = () => {
    const dataset = datasetVersion?.();
    return dataset === undefined
      ? undefined
      : `${dataset}.${peerIndex?.current()?.version ?? "-"}.${asOfDate()}${ruleTag}`;
  };
  // ETags and 304s cost no memory, so they are always on; answers are kept only with room for them.
  const answerCache = createAnswerCache({
    maxBytes: answerCacheBytes,
    maxAnswerBytes: Math.floor(answerCacheBytes * MAX_ANSWER_SHARE),
    askedTwiceOver: LARGE_ANSWER_BYTES,
    dataTag,
    // The tag's first two parts: the dataset version and the answering snapshot's.
    tagVersions: (tag) => tag.split(".").slice(0, 2),
    onCleared: (stats) => log.info({ answerCache: stats }, "answer cache emptied: the data changed"),
  });
  metrics?.watch({ answerCache, gate, disclosure: disclosureGuard });
  const connectHandler = connectNodeAdapter({
    routes(router: ConnectRouter) {
      router.service(
        AssessmentService,
        withKeptAnswers(AssessmentService, createAssessmentService(peerEngine, asOfDate, disclosureGuard), answerCache),
      );
      router.service(CompanyService, withKeptAnswers(CompanyService, createCompanyService(knex), answerCache));
      router.service(
        LossDetailsService,
        withKeptAnswers(
          LossDetailsService,
          createLossDetailsService(knex, peerEngine, asOfDate, disclosureGuard, disclosure),
          answerCache,
        ),
      );
      router.service(
        PeerGroupService,
        withKeptAnswers(PeerGroupService, createPeerGroupService(peerEngine, asOfDate, disclosure), answerCache),
      );
      router.service(
        ReferenceService,
        withKeptAnswers(ReferenceService, createReferenceService(knex, datasetVersion), answerCache),
      );
      router.service(
        MarketTrendService,
        withKeptAnswers(MarketTrendService, createMarketTrendService(peerEngine, asOfDate, disclosure), answerCache),
      );
      router.service(
        Health,
        createHealthService(
          readiness,
          apiServices.map((s) => s.typeName),
        ),
      );
      const reflection = createReflectionServices(describeServices(NAMED_SERVICES, ERROR_DETAIL_FILES));
      router.service(ServerReflection, reflection.v1);
      router.service(ServerReflectionV1Alpha, reflection.v1alpha);
      // The REST face sends only bodies it encoded itself; callers' bodies are checked.
      handlers = [...router.handlers];
      router.handlers.splice(
        0,
        router.handlers.length,
        ...handlers.map((handler) => answerErrorsTrailersOnly(relabelParseFailures(handler))),
      );
    },
    interceptors: [
      createErrorInterceptor(log),
      createAuthInterceptor(authenticator),
      createBindingProblemsInterceptor(),
      createResponseCaptureInterceptor(),
      createAdmissionInterceptor(gate, computesOverPeers),
    ],
    readMaxBytes: MAX_BODY_BYTES,
    // gRPC and Connect answers compressed as the caller offers (grpc-accept-encoding,
    // connect-accept-encoding); the REST face negotiates its own (compression.ts).
    acceptCompression: [compressionGzip, compressionBrotli],
    compressMinBytes: COMPRESS_MIN_BYTES,
    contextValues,
    fallback: (req, res) => void fallback(req, res),
  });

  /** Whether the caller is known at once: its token was verified a moment ago (verified-tokens.ts). */
  const knownCaller = (req: NodeRequest) =>
    recognize(authenticator, req.headers.authorization ?? null, requestInfoOf(req)) !== undefined;
  const rest = createRestTranscoder({
    handlers: handlers.filter((h) => apiServices.includes(h.service as (typeof apiServices)[number])),
    contextValues,
    maxBodyBytes: MAX_BODY_BYTES,
    // While the gate is busy, a caller known at once (its token verified a moment ago)
    // takes its place at the door, and a burst of them is all placed or refused before
    // any is read further. Any other is only refused there when the gate is full: a place
    // is never held for a token not yet checked. While a turn is free, a call takes it
    // where it enters the gate, after the answer cache: a kept answer never holds one.
    hold: (method, req) => {
      if (!computesOverPeers(method.parent.typeName, method.name) || !gate.busy()) return undefined;
      const place = knownCaller(req) ? gate.hold() : gate.full();
      return place instanceof GateRefusal ? atCapacity(place) : place;
    },
    answers: {
      cache: answerCache,
      recognize: knownCaller,
      authorize: async (req) =>
        void (await identify(authenticator, req.headers.authorization ?? null, requestInfoOf(req))),
    },
  });

  // Written once from the REST face's own route table: it cannot describe other routes.
  pages.set(
    "/openapi.json",
    createStaticFile(
      Buffer.from(
        JSON.stringify(
          openApiDocument(rest.routes, { issuer: tokens?.issuer, scopes: tokens?.scopes, version: SERVICE_VERSION }),
        ),
      ),
      { contentType: "application/json" },
    ),
  );

  async function fallback(req: NodeRequest, res: NodeResponse): Promise<void> {
    try {
      const path = requestPath(req);
      const read = req.method === "GET" || req.method === "HEAD";
      if (read && path === "/healthz") return writeJson(res, 200, { status: "ok" });
      const page = read ? pages.get(path) : undefined;
      if (page) return await page.serve(req, res);
      if (read && consoleSite && (path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`)))
        return await consoleSite.serve(req, res, path);
      if (read && path === "/readyz") {
        const { ready, reasons } = await readiness.check();
        return writeJson(res, ready ? 200 : 503, {
          status: ready ? "ready" : "not ready",
          reasons,
          datasetVersion: datasetVersion?.() ?? null,
          peerIndex: peerIndex?.status() ?? { state: "off" },
          eventLoopDelayMs: eventLoopDelay(),
          answerCache: answerCache.stats(),
          admission: gate.stats(),
          tokenCache: authenticator.tokenCache?.() ?? null,
          disclosure: describeRule(disclosure),
        });
      }
      for (const mount of mounts)
        if (path === mount.prefix || path.startsWith(`${mount.prefix}/`)) return mount.handle(req, res);
      if (answerUnknownProcedure(req, res, path, NAMED_SERVICES)) return;
      await rest(req, res);
    } catch (error) {
      (requestInfoOf(req)?.log ?? log).error({ err: error }, "unexpected error");
      if (!res.headersSent) writeProblem(res, problem(500, Code.Internal, "internal error"));
      else res.destroy();
    }
  }

  function handle(req: NodeRequest, res: NodeResponse): void {
    beginRequest(req, res, log);
    if (cors?.handle(req, res)) return;
    deferHeadOfGrpcAnswers(req, res);
    connectHandler(req, res);
  }
  // A request may arrive inside another's callbacks (a keep-alive connection's next
  // request): it must not run as that call's (caller-watch.ts), and stop when it ends.
  return (req: NodeRequest, res: NodeResponse) => outsideAnyCall(() => handle(req, res));
}
