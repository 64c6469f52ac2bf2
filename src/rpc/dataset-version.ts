import type { HandlerContext } from "@connectrpc/connect";

/**
 * The response header (REST) and response metadata (gRPC, gRPC-Web, Connect) naming
 * the dataset version an answer was read from. During an import and its rebuild,
 * replicas answer from different versions for seconds: this tells which one answered.
 */
export const DATASET_VERSION_HEADER = "cpb-dataset-version";

/** Says, in the answer's headers, which dataset version its data came from. */
export function tellDatasetVersion(ctx: HandlerContext, version: number | bigint | string): void {
  ctx.responseHeader.set(DATASET_VERSION_HEADER, String(version));
}
