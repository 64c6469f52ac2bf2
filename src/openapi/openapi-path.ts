import type { DescField } from "@bufbuild/protobuf";
import type { HttpRoute } from "../transcoding/http-routes.js";

/** A route's path as an OpenAPI path template, and the fields its variables bind. */
export interface OpenApiPath {
  /** The template's own spelling of literals, each variable named by its field's JSON name. */
  readonly path: string;
  readonly variables: readonly DescField[];
}

/**
 * `/lossdetails/{loss_event_id}` becomes `/lossdetails/{lossEventId}`, as the spec
 * writes it (4.7): a path variable's name is never sent, so the document uses the name
 * callers know from JSON. Literals keep the rule's spelling (`getTotalProgramCount`),
 * though the server matches them in any case (path-template.ts).
 */
export function openApiPath(route: HttpRoute): OpenApiPath {
  // parsePathTemplate split the source the same way: one text per segment.
  const texts = route.template.source.slice(1).split("/");
  const variables: DescField[] = [];
  const parts = route.template.segments.map((segment, i) => {
    if (segment.kind === "literal") return texts[i]!;
    // readHttpRoutes checked that every variable names a field of the input.
    const field = route.method.input.fields.find((f) => f.name === segment.fieldPath)!;
    variables.push(field);
    return `{${field.jsonName}}`;
  });
  return { path: `/${parts.join("/")}`, variables };
}
