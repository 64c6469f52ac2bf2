import t from "tap";
import { GetAssessmentDataRequestSchema } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { GetCompanyRequestSchema, SearchCompaniesRequestSchema } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { PostLimitAdequacyDataRequestSchema } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { createBinder } from "../../src/transcoding/field-binding.js";

const noPath = new Map<string, string>();
const query = (text: string) => new URLSearchParams(text);

t.test("query names: JSON name, aliases, any case, spaces ignored; unknown names ignored", async (t) => {
  const binder = createBinder(GetAssessmentDataRequestSchema);
  const { message, problems } = binder.bind({
    pathVariables: noPath,
    parameters: query("NAICS=52,541&naics=31&LobId=3&lineOf%20Business=4&exposure=Market%20Cap&ExposureRangeLow=10&exposureRangeHigh=1e3&retention=2.5&whatever=1"),
  });
  t.same(problems, []);
  t.same(message.naics, ["52", "541", "31"], "comma lists and repeated parameters");
  t.same(message.lineOfBusinessId, [3, 4], "aliases lobId and `lineOf Business`");
  t.equal(message.exposureType, "Market Cap");
  t.equal(message.exposureRangeLow, 10);
  t.equal(message.exposureRangeHigh, 1000);
  t.equal(message.retention, 2.5);
});

t.test("JSON bodies: strings split on commas, numbers as items, numeric strings, null as absent", async (t) => {
  const binder = createBinder(PostLimitAdequacyDataRequestSchema);
  const { message, problems } = binder.bind({
    pathVariables: noPath,
    body: {
      naics: ["52, 541", 31, null, ""],
      coverageId: "7",
      lineOfBusinessId: 0,
      organizationType: "PUB,PRV",
      exposureRangeLow: "0",
      exposureRangeHigh: 5e9,
      clientlimit: null,
      Limit: "250000.005",
      lossYear: null,
    },
  });
  t.same(problems, []);
  t.same(message.naics, ["52", "541", "31"]);
  t.equal(message.coverageId, 7);
  t.same(message.lineOfBusinessId, [0]);
  t.same(message.organizationType, ["PUB", "PRV"]);
  t.equal(message.clientLimit, undefined, "null means not given");
  t.equal(message.limit, 250000.005);
  t.equal(message.lossYear, 0);
});

t.test("every unreadable value is reported, each under its canonical name", async (t) => {
  const binder = createBinder(PostLimitAdequacyDataRequestSchema);
  const { problems } = binder.bind({
    pathVariables: noPath,
    body: {
      naics: { a: 1 },
      CoverageId: "seven",
      lobid: [1, [2]],
      exposureType: 5,
      exposureRangeLow: "1,000",
      ClientLimit: true,
      lossYear: 2024.5,
      oldestLossYear: 99999999999,
    },
  });
  t.same(problems, [
    { field: "naics", message: "an object is not a list", kind: "type" },
    { field: "coverageId", message: '"seven" is not an integer', kind: "type" },
    { field: "lineOfBusinessId", message: "a list is not a list", kind: "type" },
    { field: "exposureType", message: "5 is not a string", kind: "type" },
    { field: "exposureRangeLow", message: '"1,000" is not a number', kind: "type" },
    { field: "clientLimit", message: "true is not a number", kind: "type" },
    { field: "lossYear", message: "2024.5 is not an integer", kind: "type" },
    { field: "oldestLossYear", message: "99999999999 is out of range (-2147483648 to 2147483647)", kind: "range" },
  ]);
});

t.test("only the spec's names and aliases: proto field names are unknown names", async (t) => {
  const { message } = createBinder(SearchCompaniesRequestSchema).bind({ pathVariables: noPath, parameters: query("top=1&skip=3&order_by=Id") });
  t.equal(message.top, undefined);
  t.equal(message.skip, 0n);
  t.equal(message.orderBy, "");
});

t.test("integers are read exactly: a text a double would round to a whole number is not one", async (t) => {
  const binder = createBinder(GetCompanyRequestSchema);
  const id = (text: string) => binder.bind({ pathVariables: new Map([["id", text]]) });
  t.equal(id("5.0").message.id, 5n);
  t.equal(id("1e3").message.id, 1000n);
  t.same(id("0.99999999999999999").problems, [{ field: "id", message: '"0.99999999999999999" is not an integer', kind: "type" }]);
  t.same(id("9007199254740993.5").problems, [{ field: "id", message: '"9007199254740993.5" is not an integer', kind: "type" }]);
  t.same(id("1e50").problems, [{ field: "id", message: "1e50 is out of range (-9223372036854775808 to 9223372036854775807)", kind: "range" }]);
});

t.test("a scalar given twice is a problem, not a silent pick", async (t) => {
  const { problems } = createBinder(GetAssessmentDataRequestSchema).bind({
    pathVariables: noPath,
    parameters: query("coverageId=1&CoverageID=2"),
  });
  t.same(problems, [{ field: "coverageId", message: "is given more than once", kind: "type" }]);
});

t.test("path variables bind to their fields; 64-bit ids become bigints", async (t) => {
  const { message, problems } = createBinder(GetCompanyRequestSchema).bind({ pathVariables: new Map([["id", "9007199254740991"]]) });
  t.same(problems, []);
  t.equal(message.id, 9007199254740991n);
  const huge = createBinder(GetCompanyRequestSchema).bind({ pathVariables: new Map([["id", "99999999999999999999"]]) });
  t.equal(huge.problems[0]?.kind, "range");
});

t.test("OData parameter names with $, percent-encoded or not, any case", async (t) => {
  const { message } = createBinder(SearchCompaniesRequestSchema).bind({
    pathVariables: noPath,
    parameters: query("%24filter=startswith(CompanyName,'Acme')&$ORDERBY=Id desc&$top=5&%24Skip=10"),
  });
  t.equal(message.filter, "startswith(CompanyName,'Acme')");
  t.equal(message.orderBy, "Id desc");
  t.equal(message.top, 5);
  t.equal(message.skip, 10n);
});
