// Issue 28's done-when: types generated from /openapi.json with openapi-typescript (what
// openapi-fetch clients are typed with) require the four peer-group inputs on every
// peer-group operation, so a call the service always refuses no longer compiles. The
// types are generated from the document the server builds, then a file using them is
// compiled with the TypeScript compiler: each call that leaves out one required input
// carries `@ts-expect-error`, which is itself an error when the call compiles.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import t from "tap";
import { openApiDocument } from "../../src/openapi/openapi-document.js";
import { restRoutes } from "../helpers/rest-routes.js";

type Json = { [key: string]: unknown };

const PEER_GROUP_INPUTS = ["naics", "coverageid", "exposurerangelow", "exposurerangehigh"];
const VALUES: Record<string, string> = {
  naics: '["52"]',
  coverageid: "1",
  exposurerangelow: "0",
  exposurerangehigh: "1e7",
};
const key = (name: string) => name.toLowerCase();

/** Each operation that reads a peer group: its id, where its inputs go, and their documented names. */
function peerGroupOperations(document: Json): { id: string; place: "query" | "body"; names: string[] }[] {
  const found: { id: string; place: "query" | "body"; names: string[] }[] = [];
  for (const item of Object.values(document.paths as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(item)) {
      const query = ((operation.parameters ?? []) as Json[]).map((p) => p.name as string);
      const ref = (
        (
          ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as
            Json | undefined
        )?.schema as Json | undefined
      )?.$ref as string | undefined;
      const body = ref
        ? Object.keys(
            ((document.components as Json).schemas as Record<string, Json>)[ref.split("/").pop()!]!.properties as Json,
          )
        : [];
      const names = (ref ? body : query).filter((name) => PEER_GROUP_INPUTS.includes(key(name)));
      if (names.length > 0) found.push({ id: operation.operationId as string, place: ref ? "body" : "query", names });
    }
  }
  return found;
}

t.test(
  "openapi-typescript's types require naics, coverageId, exposureRangeLow and exposureRangeHigh on every peer-group operation",
  async (t) => {
    const document = openApiDocument(restRoutes, { issuer: "https://idp.example.com", version: "0" }) as Json;
    const operations = peerGroupOperations(document);
    // At least the assessment (2), RPM (2), count (2) and limit-adequacy (3) operations;
    // a new operation that reads a peer group must require all four too.
    t.ok(operations.length >= 9, `the peer-group operations (${operations.length})`);
    const lines = [
      'import type { operations } from "./api.js";',
      'type Query<K extends keyof operations> = operations[K]["parameters"]["query"];',
      'type Body<K extends keyof operations> = NonNullable<operations[K]["requestBody"]>["content"]["application/json"];',
    ];
    let checks = 0;
    for (const { id, place, names } of operations) {
      t.same(names.map(key).sort(), [...PEER_GROUP_INPUTS].sort(), `${id}: all four inputs are there`);
      const type = place === "query" ? `Query<"${id}">` : `Body<"${id}">`;
      const object = (omit?: string) =>
        `{ ${names
          .filter((name) => name !== omit)
          .map((name) => `${JSON.stringify(name)}: ${VALUES[key(name)]}`)
          .join(", ")} }`;
      lines.push(`export const ${id}_all: ${type} = ${object()};`);
      for (const name of names) {
        lines.push(
          `// @ts-expect-error ${name} is required`,
          `export const ${id}_no_${key(name)}: ${type} = ${object(name)};`,
        );
        checks++;
      }
      if (place === "query") {
        lines.push(
          "// @ts-expect-error the query itself is required",
          `export const ${id}_no_query: operations["${id}"]["parameters"] = {};`,
        );
        checks++;
      }
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), "cpb-openapi-ts-"));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      path.join(dir, "api.d.ts"),
      astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0])),
    );
    writeFileSync(path.join(dir, "calls.ts"), lines.join("\n") + "\n");
    const program = ts.createProgram([path.join(dir, "calls.ts")], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    t.same(diagnostics, [], `every call with all four compiles, and each of the ${checks} calls without one does not`);
  },
);
