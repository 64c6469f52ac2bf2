import t from "tap";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { readHttpRoutes } from "../../src/transcoding/http-routes.js";
import { createRouteTable } from "../../src/transcoding/route-table.js";

const methods = [AssessmentService, CompanyService, LossDetailsService].flatMap((s) => s.methods);
const routes = readHttpRoutes(methods);
const P = "/commercialpolicybenchmark/v2.0";

t.test("the contract's annotations give every path of the spec", async (t) => {
  const listed = routes.map(
    (r) => `${r.httpMethod} ${r.template.source} -> ${r.method.name}${r.responseBody ? ` [${r.responseBody}]` : ""}`,
  );
  t.same(
    listed.sort(),
    [
      `GET ${P}/assessment/getassessmentdata -> GetAssessmentData`,
      `GET ${P}/assessment/getrpmdistributiondata -> GetRpmDistributionData`,
      `GET ${P}/company -> SearchCompanies`,
      `GET ${P}/company/{id} -> GetCompany [company]`,
      `GET ${P}/lossdetails/getlimitadequacydata -> GetLimitAdequacy [limit_adequacy]`,
      `GET ${P}/lossdetails/getlossexperience -> GetLossExperience`,
      `GET ${P}/lossdetails/limitadequacy -> GetLimitAdequacy [limit_adequacy]`,
      `GET ${P}/lossdetails/{loss_event_id} -> GetLossDetails [loss_detail]`,
      `POST ${P}/assessment/getTotalLossCount -> GetTotalLossCount [total_loss_count]`,
      `POST ${P}/assessment/getTotalProgramCount -> GetTotalProgramCount [total_program_count]`,
      `POST ${P}/assessment/getassessmentdata -> PostAssessmentData`,
      `POST ${P}/assessment/getrpmdistributiondata -> GetRpmDistributionData`,
      `POST ${P}/lossdetails/getlimitadequacydata -> PostLimitAdequacyData [limit_adequacy]`,
      `POST ${P}/lossdetails/getlossexperience -> GetLossExperience`,
    ].sort(),
  );
});

t.test("routing: the most specific template wins; 405 lists the allowed methods; 404 otherwise", async (t) => {
  const table = createRouteTable(routes);
  const found = (method: string, path: string) => {
    const match = table.match(method, path);
    return match.outcome === "found" ? match.route.method.name : match;
  };
  t.equal(found("GET", `${P}/lossdetails/limitadequacy`), "GetLimitAdequacy", "literal beats {loss_event_id}");
  t.equal(found("GET", `${P}/lossdetails/42`), "GetLossDetails");
  t.equal(found("GET", `${P}/LossDetails/GetLossExperience/`), "GetLossExperience", "literal beats {loss_event_id}");
  t.equal(found("POST", `${P}/lossdetails/getlossexperience`), "GetLossExperience");
  t.equal(found("GET", `${P}/lossdetails/getlimitadequacydata`), "GetLimitAdequacy");
  t.equal(found("POST", `${P}/lossdetails/getlimitadequacydata`), "PostLimitAdequacyData");
  t.equal(found("POST", `${P}/Assessment/GetAssessmentData/`), "PostAssessmentData");
  t.same(found("DELETE", `${P}/company/5`), { outcome: "method-not-allowed", allow: ["GET"] });
  t.equal(found("HEAD", `${P}/company/5`), "GetCompany", "HEAD is GET without the body");
  t.same(found("GET", `${P}/assessment/getTotalProgramCount`), { outcome: "method-not-allowed", allow: ["POST"] });
  t.same(found("PUT", `${P}/lossdetails/getlimitadequacydata`), {
    outcome: "method-not-allowed",
    allow: ["GET", "POST"],
  });
  t.same(found("GET", `${P}/nothing/here`), { outcome: "not-found" });
  t.same(found("GET", `/commercialpolicybenchmark/v1.0/company/5`), { outcome: "not-found" });
});

t.test("two rules that match the same requests are refused at boot", async (t) => {
  const twice = [CompanyService.method.getCompany, CompanyService.method.getCompany];
  t.throws(() => readHttpRoutes(twice), /collides/);
});
