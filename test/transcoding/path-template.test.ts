import t from "tap";
import { compareSpecificity, matchPathTemplate, parsePathTemplate } from "../../src/transcoding/path-template.js";

t.test("templates parse into literal and variable segments", async (t) => {
  t.same(parsePathTemplate("/a/v2.0/company/{id}").segments, [
    { kind: "literal", text: "a" },
    { kind: "literal", text: "v2.0" },
    { kind: "literal", text: "company" },
    { kind: "variable", fieldPath: "id" },
  ]);
  t.same(parsePathTemplate("/x/{loss_event_id=*}").segments[1], { kind: "variable", fieldPath: "loss_event_id" });
  for (const bad of ["a/b", "/a/**", "/a/{id=b/*}", "/a:verb", "/a//b", "/{a.b}"]) {
    t.throws(() => parsePathTemplate(bad), `"${bad}" is refused at boot`);
  }
});

t.test("paths match case-insensitively, with or without a trailing slash", async (t) => {
  const template = parsePathTemplate("/cpb/v2.0/assessment/getTotalProgramCount");
  const cases: [string, boolean][] = [
    ["/cpb/v2.0/assessment/getTotalProgramCount", true],
    ["/CPB/V2.0/ASSESSMENT/gettotalprogramcount", true],
    ["/cpb/v2.0/assessment/getTotalProgramCount/", true],
    ["/cpb/v2.0/assessment", false],
    ["/cpb/v2.0/assessment/getTotalProgramCount/x", false],
    ["/cpb/v2%2E0/assessment/getTotalProgramCount", true],
  ];
  for (const [path, matches] of cases) t.equal(matchPathTemplate(template, path) !== undefined, matches, path);
});

t.test("variables are percent-decoded; an empty one does not match", async (t) => {
  const template = parsePathTemplate("/company/{id}");
  t.same(matchPathTemplate(template, "/company/12%33"), new Map([["id", "123"]]));
  t.equal(matchPathTemplate(template, "/company/"), undefined);
  t.equal(matchPathTemplate(template, "/company/%E0%A4%A"), undefined, "broken escapes");
});

t.test("a literal is more specific than a variable", async (t) => {
  const literal = parsePathTemplate("/lossdetails/limitadequacy");
  const variable = parsePathTemplate("/lossdetails/{loss_event_id}");
  t.ok(compareSpecificity(literal, variable) < 0);
  t.ok(compareSpecificity(variable, literal) > 0);
  t.equal(compareSpecificity(literal, literal), 0);
});
