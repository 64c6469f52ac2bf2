import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { PeerGroupService } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { ReferenceService } from "../../gen/commercialpolicybenchmark/v2/reference_pb.js";
import { MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";

/**
 * The API's services, in the order the REST face, the OpenAPI document, reflection and the
 * metrics list them: the one list of them, so a new service is added once.
 */
export const API_SERVICES = [
  AssessmentService,
  CompanyService,
  LossDetailsService,
  PeerGroupService,
  ReferenceService,
  MarketTrendService,
] as const;
