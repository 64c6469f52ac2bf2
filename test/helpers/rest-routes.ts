import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { PeerGroupService } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { ReferenceService } from "../../gen/commercialpolicybenchmark/v2/reference_pb.js";
import { MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";
import { readHttpRoutes } from "../../src/transcoding/http-routes.js";

/** The services whose methods the REST face serves (create-app.ts, `apiServices`). */
export const REST_SERVICES = [
  AssessmentService,
  CompanyService,
  LossDetailsService,
  PeerGroupService,
  ReferenceService,
  MarketTrendService,
] as const;

/** The route table the REST transcoder builds from those services' methods. */
export const restRoutes = readHttpRoutes(REST_SERVICES.flatMap((service) => service.methods));
