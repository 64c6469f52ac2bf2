import t from "tap";
import { GetAssessmentDataRequestSchema } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import {
  GetCompanyRequestSchema,
  SearchCompaniesRequestSchema,
} from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { PostLimitAdequacyDataRequestSchema } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { InputProblemsSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { createBinder } from "../../src/transcoding/field-binding.js";
import { NumberText } from "../../src/transcoding/json-body.js";

const noPath = new Map<string, string>();
const query = (text: string) => new URLSearchParams(text);

t.test("query names: JSON name, aliases, any case, spaces ignored; unknown names ignored", async (t) => {
  const binder = createBinder(GetAssessmentDataRequestSchema);
  const { message, problems } = binder.bind({
    pathVariables: noPath,
    parameters: query(
      "NAICS=52,541&naics=31&LobId=3&lineOf%20Business=4&exposure=Market%20Cap&ExposureRangeLow=10&exposureRangeHigh=1e3&retention=2.5&whatever=1",
    ),
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
  const { message } = createBinder(SearchCompaniesRequestSchema).bind({
    pathVariables: noPath,
    parameters: query("top=1&skip=3&order_by=Id"),
  });
  t.equal(message.top, undefined);
  t.equal(message.skip, 0n);
  t.equal(message.orderBy, "");
});

t.test("integers are read exactly: a text a double would round to a whole number is not one", async (t) => {
  const binder = createBinder(GetCompanyRequestSchema);
  const id = (text: string) => binder.bind({ pathVariables: new Map([["id", text]]) });
  t.equal(id("5.0").message.id, 5n);
  t.equal(id("1e3").message.id, 1000n);
  t.same(id("0.99999999999999999").problems, [
    { field: "id", message: '"0.99999999999999999" is not an integer', kind: "type" },
  ]);
  t.same(id("9007199254740993.5").problems, [
    { field: "id", message: '"9007199254740993.5" is not an integer', kind: "type" },
  ]);
  t.same(id("1e50").problems, [
    { field: "id", message: "1e50 is out of range (-9223372036854775808 to 9223372036854775807)", kind: "range" },
  ]);
});

t.test("a scalar given twice is a problem, not a silent pick", async (t) => {
  const { problems } = createBinder(GetAssessmentDataRequestSchema).bind({
    pathVariables: noPath,
    parameters: query("coverageId=1&CoverageID=2"),
  });
  t.same(problems, [{ field: "coverageId", message: "is given more than once", kind: "type" }]);
});

t.test("path variables bind to their fields; 64-bit ids become bigints", async (t) => {
  const { message, problems } = createBinder(GetCompanyRequestSchema).bind({
    pathVariables: new Map([["id", "9007199254740991"]]),
  });
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

t.test("a list over its max_items is refused naming the field and the limit, and read no further", async (t) => {
  const binder = createBinder(PostLimitAdequacyDataRequestSchema);
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => new NumberText(String(i + 1)));
  const atLimit = binder.bind({
    pathVariables: noPath,
    body: { naics: "52,".repeat(1100), lineOfBusinessId: numbers(1000), organizationType: Array(100).fill("PUB") },
  });
  t.same(atLimit.problems, [], "1,000 lines, 1,100 codes and 100 types are read");
  t.equal(atLimit.message.lineOfBusinessId.length, 1000);
  t.equal(atLimit.message.naics.length, 1100, "duplicates count: the limit bounds the work, not the distinct values");

  const started = performance.now();
  const over = binder.bind({
    pathVariables: noPath,
    body: {
      naics: ["52", "52,".repeat(500_000)],
      lineOfBusinessId: numbers(100_000),
      organizationType: "x,".repeat(101),
      lobId: "bad",
    },
  });
  t.same(
    over.problems,
    [
      { field: "naics", message: "must have at most 1100 items" },
      { field: "lineOfBusinessId", message: "must have at most 1000 items" },
      { field: "organizationType", message: "must have at most 100 items" },
    ],
    'items past the limit (the alias\'s "bad" included) are never read',
  );
  t.ok(performance.now() - started < 500, "100,000 items cost the limit's worth (loose, for a loaded machine)");

  // Repeated parameters were copied into a new array per value: quadratic (3 s for 100,000).
  const repeated = binder.bind({ pathVariables: noPath, parameters: new URLSearchParams("lobId=11&".repeat(100_000)) });
  t.same(repeated.problems, [{ field: "lineOfBusinessId", message: "must have at most 1000 items" }]);
});

t.test("a request list without a max_items option is refused at start-up", async (t) => {
  t.throws(() => createBinder(InputProblemsSchema), {
    message: "commercialpolicybenchmark.v2.InputProblems.problems: a list field of a request needs a max_items option",
  });
});
