import type { DescService } from "@bufbuild/protobuf";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";

/** `/package.Service/Method`, as gRPC, gRPC-Web and Connect name a procedure. */
const PROCEDURE_PATH = /^\/([A-Za-z_][\w.]*\.[A-Za-z_]\w*)\/([A-Za-z_]\w*)$/;

/** gRPC's status code UNIMPLEMENTED (grpc/doc/statuscodes.md). */
const GRPC_UNIMPLEMENTED = "12";

/**
 * Answers a call of a procedure nobody serves the way its caller's protocol expects:
 * `unimplemented`, naming the unknown service or method. Without it such a call fell
 * through to the REST face's 404 page, which a gRPC client reports as "Received http2
 * header with status: 404". gRPC and gRPC-Web get a trailers-only answer (HTTP 200,
 * `grpc-status: 12`); the Connect protocol an HTTP 404 with its JSON error, its own
 * mapping of `unimplemented`. Returns false for anything else (REST's own 404s stay).
 */
export function answerUnknownProcedure(
  req: NodeRequest,
  res: NodeResponse,
  path: string,
  services: readonly DescService[],
): boolean {
  const contentType = String(req.headers["content-type"] ?? "");
  const grpc = contentType.startsWith("application/grpc");
  const procedure = PROCEDURE_PATH.exec(path);
  const connect =
    !grpc &&
    procedure !== null &&
    (req.headers["connect-protocol-version"] !== undefined || /^application\/(proto|json|connect\+)/.test(contentType));
  if (!grpc && !connect) return false;
  const [, serviceName, methodName] = procedure ?? [];
  const service = services.find((s) => s.typeName === serviceName);
  const message = !procedure
    ? `${path} names no procedure: gRPC paths are /package.Service/Method`
    : service
      ? `${serviceName} has no method ${methodName}; it has ${service.methods.map((m) => m.name).join(", ")}`
      : `no service ${serviceName}`;
  if (grpc) {
    // Headers set, not written: end() sends them as the one frame that ends the stream.
    res.statusCode = 200;
    res.setHeader("content-type", contentType.startsWith("application/grpc-web") ? contentType : "application/grpc");
    res.setHeader("grpc-status", GRPC_UNIMPLEMENTED);
    res.setHeader("grpc-message", grpcMessage(message));
    res.end();
    return true;
  }
  const body = Buffer.from(JSON.stringify({ code: "unimplemented", message }));
  res.statusCode = 404;
  res.setHeader("content-type", "application/json");
  res.setHeader("content-length", body.length);
  res.end(body);
  return true;
}

/**
 * grpc-message's percent-encoding (gRPC over HTTP/2, Responses): only bytes outside
 * printable ASCII, and `%`, are encoded. encodeURIComponent encodes `,` and `;` too,
 * which clients that decode with decodeURI (grpc-js) then show as `%2C` and `%3B`.
 */
function grpcMessage(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8"))
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}
