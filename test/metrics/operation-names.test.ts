import t from "tap";
import { createOperationNamer, OTHER } from "../../src/metrics/operation-names.js";

const P = "/commercialpolicybenchmark/v2.0";

t.test("operations are named from a bounded set, never by a raw path", async (t) => {
  const name = createOperationNamer();
  const cases: [string, string, string][] = [
    [
      "POST",
      "/commercialpolicybenchmark.v2.AssessmentService/PostAssessmentData",
      "commercialpolicybenchmark.v2.AssessmentService/PostAssessmentData",
    ],
    ["POST", `${P}/assessment/getassessmentdata`, "commercialpolicybenchmark.v2.AssessmentService/PostAssessmentData"],
    ["GET", `${P}/assessment/getassessmentdata`, "commercialpolicybenchmark.v2.AssessmentService/GetAssessmentData"],
    ["HEAD", `${P}/company/1001`, "commercialpolicybenchmark.v2.CompanyService/GetCompany"],
    ["GET", `${P}/company/1001`, "commercialpolicybenchmark.v2.CompanyService/GetCompany"],
    ["GET", `${P}/company/77`, "commercialpolicybenchmark.v2.CompanyService/GetCompany"],
    ["GET", `${P}/trend/getmarkettrend`, "commercialpolicybenchmark.v2.MarketTrendService/GetMarketTrend"],
    ["POST", `${P}/Trend/GetMarketTrend/`, "commercialpolicybenchmark.v2.MarketTrendService/GetMarketTrend"],
    ["GET", `${P}/lossdetails/getlossexperience`, "commercialpolicybenchmark.v2.LossDetailsService/GetLossExperience"],
    [
      "POST",
      `${P}/LossDetails/GetLossExperience/`,
      "commercialpolicybenchmark.v2.LossDetailsService/GetLossExperience",
    ],
    [
      "POST",
      "/commercialpolicybenchmark.v2.LossDetailsService/GetLossExperience",
      "commercialpolicybenchmark.v2.LossDetailsService/GetLossExperience",
    ],
    ["POST", "/grpc.health.v1.Health/Check", "grpc.health.v1.Health/Check"],
    [
      "POST",
      "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      "grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    ],
    [
      "POST",
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
      "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    ],
    ["GET", "/healthz", "healthz"],
    ["GET", "/readyz", "readyz"],
    ["GET", "/openapi.json", "openapi"],
    ["GET", "/docs", "docs"],
    ["GET", "/", "front_page"],
    ["OPTIONS", `${P}/company/1001`, "preflight"],
    ["DELETE", `${P}/company/1001`, OTHER],
    ["GET", `${P}/nowhere/1001`, OTHER],
    ["POST", "/commercialpolicybenchmark.v2.CompanyService/NoSuchMethod", OTHER],
    ["POST", "/some.Other/Call", OTHER],
    ["GET", "/.well-known/openid-configuration", OTHER],
  ];
  for (const [method, path, operation] of cases) t.equal(name(method, path), operation, `${method} ${path}`);
});
