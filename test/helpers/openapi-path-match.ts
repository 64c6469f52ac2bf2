/**
 * Which path of an OpenAPI document a request path falls under, as OpenAPI 3.1 reads
 * its Paths Object: a template's `{name}` stands for one whole non-empty segment
 * part, literals compare exactly (case-sensitively), and "concrete (non-templated)
 * paths would be matched before their templated counterparts", segment by segment.
 */
export interface PathMatch {
  template: string;
  variables: Record<string, string>;
}

export function matchOpenApiPath(templates: Iterable<string>, path: string): PathMatch | undefined {
  const segments = path.split("/");
  let best: { match: PathMatch; templated: boolean[] } | undefined;
  for (const template of templates) {
    const parts = template.split("/");
    if (parts.length !== segments.length) continue;
    const variables: Record<string, string> = {};
    const templated: boolean[] = [];
    const matches = parts.every((part, i) => {
      const names: string[] = [];
      const pattern = part.replace(/\{([^{}]+)\}|[^{}]+/g, (piece, name: string | undefined) => {
        if (name === undefined) return piece.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
        names.push(name);
        return "([^/]+)";
      });
      const found = new RegExp(`^${pattern}$`).exec(segments[i]!);
      if (!found) return false;
      names.forEach((name, k) => (variables[name] = decodeURIComponent(found[k + 1]!)));
      templated.push(names.length > 0);
      return true;
    });
    if (matches && (!best || moreConcrete(templated, best.templated)))
      best = { match: { template, variables }, templated };
  }
  return best?.match;
}

/** At the first segment where they differ, a literal segment beats a templated one. */
function moreConcrete(a: boolean[], b: boolean[]): boolean {
  const i = a.findIndex((templated, k) => templated !== b[k]);
  return i >= 0 && !a[i];
}
