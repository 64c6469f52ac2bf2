import { API_SERVICES } from "../../src/services/api-services.js";
import { readHttpRoutes } from "../../src/transcoding/http-routes.js";

/** The services whose methods the REST face serves: the API's own list. */
export const REST_SERVICES = API_SERVICES;

/** The route table the REST transcoder builds from those services' methods. */
export const restRoutes = readHttpRoutes(REST_SERVICES.flatMap((service) => service.methods));
