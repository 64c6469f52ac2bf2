/**
 * URL path templates of google.api.http rules (google/api/http.proto, "Path template
 * syntax"), parsed once at start-up. The subset supported is what a REST face of
 * fixed paths needs: literal segments and single-segment variables `{field}` or
 * `{field=*}`. Anything else fails at boot rather than matching wrongly at runtime.
 */

export type Segment = { kind: "literal"; text: string } | { kind: "variable"; fieldPath: string };

export interface PathTemplate {
  readonly source: string;
  readonly segments: readonly Segment[];
}

export function parsePathTemplate(source: string): PathTemplate {
  if (!source.startsWith("/")) throw new Error(`path template "${source}" must start with "/"`);
  if (source.includes(":")) throw new Error(`path template "${source}": verbs are not supported`);
  const segments = source
    .slice(1)
    .split("/")
    .map((text): Segment => {
      const variable = /^\{([a-z_][a-z0-9_]*)(?:=\*)?\}$/i.exec(text);
      if (variable) return { kind: "variable", fieldPath: variable[1]! };
      if (text === "" || /[{}*=]/.test(text)) {
        throw new Error(`path template "${source}": unsupported segment "${text}"`);
      }
      return { kind: "literal", text: text.toLowerCase() };
    });
  return { source, segments };
}

/**
 * Matches a request path against a template: literals case-insensitively (SEMANTICS.md
 * section 11), a trailing slash allowed. Returns the percent-decoded variable values,
 * or undefined when the path does not match.
 */
export function matchPathTemplate(template: PathTemplate, path: string): Map<string, string> | undefined {
  const segments = pathSegments(path);
  return segments && matchSegments(template, segments);
}

/** A request path's segments, percent-decoded (undefined where an escape is broken), split once for every template. */
export interface PathSegments {
  readonly decoded: readonly (string | undefined)[];
  /** `decoded`, lower-cased: what literals are compared with. */
  readonly folded: readonly (string | undefined)[];
}

export function pathSegments(rawPath: string): PathSegments | undefined {
  if (!rawPath.startsWith("/")) return undefined;
  const path = rawPath.replace(/^\/+/, "/"); // `//a/b` is `/a/b`
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(1, -1) : path.slice(1);
  const decoded = trimmed.split("/").map(safeDecode);
  return { decoded, folded: decoded.map((part) => part?.toLowerCase()) };
}

export function matchSegments(
  template: PathTemplate,
  { decoded, folded }: PathSegments,
): Map<string, string> | undefined {
  if (decoded.length !== template.segments.length) return undefined;
  const variables = new Map<string, string>();
  for (let i = 0; i < decoded.length; i++) {
    const segment = template.segments[i]!;
    if (segment.kind === "literal") {
      if (folded[i] !== segment.text) return undefined;
    } else {
      const value = decoded[i];
      if (value === undefined || value === "") return undefined;
      variables.set(segment.fieldPath, value);
    }
  }
  return variables;
}

/**
 * Orders two templates that both match a path: at the first segment where they
 * differ, a literal is more specific than a variable (`lossdetails/limitadequacy`
 * wins over `lossdetails/{loss_event_id}`). Negative when `a` is more specific.
 */
export function compareSpecificity(a: PathTemplate, b: PathTemplate): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const kindA = a.segments[i]!.kind;
    const kindB = b.segments[i]!.kind;
    if (kindA !== kindB) return kindA === "literal" ? -1 : 1;
  }
  return 0;
}

/** The shape of a template: two templates with the same shape match the same paths. */
export function templateShape(template: PathTemplate): string {
  return template.segments.map((s) => (s.kind === "literal" ? s.text : "{}")).join("/");
}

function safeDecode(text: string): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
