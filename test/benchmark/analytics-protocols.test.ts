// The analytics over gRPC and Connect, on the demo data: for random peer groups, each
// RPC's answer, shaped as REST shows it, must equal the reference model's figures.
import t from "tap";
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  AssessmentService,
  GetAssessmentDataResponseSchema,
  GetRpmDistributionDataResponseSchema,
  PostAssessmentDataResponseSchema,
} from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import {
  GetLossExperienceResponseSchema,
  LimitAdequacySchema,
  LossDetailsService,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { messageJson } from "../../src/transcoding/json-writer.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { readCsv } from "../ingest/helpers/read-csv.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { ANALYTICS_OPERATIONS } from "./helpers/operations.js";
import { drawLossExperienceAsk, drawRequest } from "./helpers/random-request.js";
import { createSeededRandom } from "../helpers/seeded-random.js";
import type { ReferenceRequest } from "./reference/model-types.js";

const AS_OF = "2026-08-31";
const GROUPS = 8;

t.test("gRPC and Connect agree with the reference on random peer groups of the demo data", async (t) => {
  const dir = await createTempDir(t, "cpb-protocols-");
  await generateDataset(dir, { seed: "demo", asOf: AS_OF }); // the demo size of cpb dev
  const { knex } = await createTestDatabase(t);
  await importDataset(knex, dir);
  const server = await startTestServer(t, knex, { asOf: AS_OF });
  const [companies, programs, losses, linesOfBusiness] = await Promise.all(
    ["companies.csv", "programs.csv", "losses.csv", "lines_of_business.csv"].map((file) => readCsv(dir, file)),
  );
  const source = {
    dataset: { companies: companies!, programs: programs!, losses: losses! },
    linesOfBusiness: linesOfBusiness!,
  };
  const expected = (name: string, request: ReferenceRequest) =>
    ANALYTICS_OPERATIONS.find((operation) => operation.name === name)!.expected(source.dataset, request, AS_OF);
  const random = createSeededRandom("cpb-protocols-1");

  const transports: [string, Transport][] = [
    ["gRPC", createGrpcTransport({ baseUrl: server.url })],
    ["Connect", createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" })],
    // The binary codec: limit adequacy's cases go out as the peer index rendered them.
    ["Connect (binary)", createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", useBinaryFormat: true })],
  ];
  for (let group = 0; group < GROUPS; group++) {
    const request = drawRequest(source, random, AS_OF);
    Object.assign(request, drawLossExperienceAsk(source, request.coverageId, random));
    const input = toMessageInit(request);
    for (const [protocol, transport] of transports) {
      const assessment = createClient(AssessmentService, transport);
      const lossDetails = createClient(LossDetailsService, transport);
      const same = (actual: unknown, name: string) =>
        t.strictSame(actual, expected(name, request), `${protocol} ${name} #${group}`, { request });
      same(shape(GetAssessmentDataResponseSchema, await assessment.getAssessmentData(input)), "GET assessment");
      same(shape(PostAssessmentDataResponseSchema, await assessment.postAssessmentData(input)), "POST assessment");
      same(shape(GetRpmDistributionDataResponseSchema, await assessment.getRpmDistributionData(input)), "POST RPM");
      same(Number((await assessment.getTotalProgramCount(input)).totalProgramCount), "POST total program count");
      same(Number((await assessment.getTotalLossCount(input)).totalLossCount), "POST total loss count");
      same(
        shape(LimitAdequacySchema, (await lossDetails.getLimitAdequacy(input)).limitAdequacy!),
        "GET limit adequacy (limitadequacy)",
      );
      same(
        shape(LimitAdequacySchema, (await lossDetails.postLimitAdequacyData(input)).limitAdequacy!),
        "POST limit adequacy",
      );
      same(shape(GetLossExperienceResponseSchema, await lossDetails.getLossExperience(input)), "POST loss experience");
    }
  }
});

/** A normalized request as the fields of the request messages (they share their names). */
function toMessageInit(request: ReferenceRequest) {
  const amount = (value: string | null | undefined) =>
    value === null || value === undefined ? undefined : Number(value);
  return {
    naics: request.naics,
    coverageId: request.coverageId,
    lineOfBusinessId: request.lineOfBusinessId,
    exposureType: request.exposureType,
    exposureRangeLow: Number(request.exposureRangeLow),
    exposureRangeHigh: Number(request.exposureRangeHigh),
    organizationType: request.organizationType,
    premium: amount(request.premium),
    limit: amount(request.limit),
    retention: amount(request.retention),
    clientLimit: amount(request.clientLimit),
    oldestTrailing: request.oldestTrailing ?? 0,
    newestTrailing: request.newestTrailing ?? 0,
    lossYear: request.lossYear ?? 0,
    oldestLossYear: request.oldestLossYear ?? 0,
    newestLossYear: request.newestLossYear ?? 0,
    years: request.years ?? undefined,
    limits: (request.limits ?? []).map(Number),
  };
}

function shape<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>) {
  return JSON.parse(Buffer.concat(messageJson(schema, message).chunks()).toString("utf8")) as unknown;
}
