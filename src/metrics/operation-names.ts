import type { DescService } from "@bufbuild/protobuf";
import { API_SERVICES } from "../services/api-services.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { Health } from "../../gen/health/v1/health_pb.js";
import { readHttpRoutes } from "../transcoding/http-routes.js";
import { createRouteTable } from "../transcoding/route-table.js";

/**
 * The services whose calls are counted by their RPC name: the API's, health and reflection.
 * A call of a service missing here is counted as `other`, never under its path.
 */
export const NAMED_SERVICES: readonly DescService[] = [
  ...API_SERVICES,
  Health,
  ServerReflection,
  ServerReflectionV1Alpha,
];

/** Everything that is neither an RPC nor one of the fixed paths: unknown paths, wrong methods, the dev provider. */
export const OTHER = "other";

/** The pages served outside any RPC (CONVENTIONS.md, Health; Around the API), by fixed names. */
const FIXED_PATHS = new Map([
  ["/healthz", "healthz"],
  ["/readyz", "readyz"],
  ["/", "front_page"],
  ["/docs", "docs"],
  ["/openapi.json", "openapi"],
]);

/** The operation label of a request, from its HTTP method and path. */
export type OperationNamer = (httpMethod: string, path: string) => string;

/**
 * Names a request's operation from a bounded set, so that label cardinality stays
 * bounded whatever callers send: the RPC name (`package.Service/Method`) for a call
 * over any protocol, REST included (its path matched as the REST face matches it, so
 * `/company/1001` and `/company/77` are both CompanyService/GetCompany), a fixed name
 * for the pages and CORS preflights, and `other` for the rest. Never a raw path.
 */
export function createOperationNamer(services: readonly DescService[] = NAMED_SERVICES): OperationNamer {
  const byRpcPath = new Map<string, string>();
  for (const service of services) {
    for (const method of service.methods)
      byRpcPath.set(`/${service.typeName}/${method.name}`, `${service.typeName}/${method.name}`);
  }
  // Its own table (it remembers recent paths): the REST face's is not reachable from here.
  const restRoutes = createRouteTable(readHttpRoutes(services.flatMap((service) => service.methods)));
  return (httpMethod, path) => {
    if (httpMethod === "OPTIONS") return "preflight";
    const named = byRpcPath.get(path) ?? FIXED_PATHS.get(path);
    if (named) return named;
    const match = restRoutes.match(httpMethod, path);
    return match.outcome === "found" ? `${match.route.method.parent.typeName}/${match.route.method.name}` : OTHER;
  };
}
