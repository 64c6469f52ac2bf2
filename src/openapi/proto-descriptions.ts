import type { DescField, DescMessage, DescMethod, DescService } from "@bufbuild/protobuf";
import { protoComments } from "../../gen/commercialpolicybenchmark/v2/proto_comments.js";

/**
 * Summaries and descriptions from the contract's own comments (gen/commercialpolicybenchmark/v2/proto_comments.ts,
 * written by `buf generate`), so the document and the proto files cannot tell two
 * stories. Comment lines are joined into Markdown paragraphs: a single line break in
 * a proto comment is only the source's wrapping.
 */

type Described = DescService | DescMethod | DescMessage | DescField;

/** The leading comment of a descriptor, as Markdown; undefined without one. */
export function descriptionOf(desc: Described): string | undefined {
  const name = desc.kind === "rpc" || desc.kind === "field" ? `${desc.parent.typeName}.${desc.name}` : desc.typeName;
  const text = protoComments[name];
  if (text === undefined) return undefined;
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
}

/**
 * An operation's summary and description: the first paragraph of the rpc's comment is
 * the summary (what a sidebar lists), the rest its description. Without a comment the
 * summary is the method's name, so no operation is listed as a bare path.
 */
export function operationText(method: DescMethod): { summary: string; description?: string } {
  const text = descriptionOf(method);
  if (text === undefined) return { summary: method.name };
  const [summary, ...rest] = text.split("\n\n");
  return { summary: summary!.replace(/\.$/, ""), ...(rest.length > 0 ? { description: rest.join("\n\n") } : {}) };
}
