/** Health endpoints (doc 1 §4.5): check registry, live state and the answers. Pure: the router wires them in. */
export { findHealthCheck, healthCheckNames, healthChecks, healthEndpoints, type HealthCheck, type HealthEndpoint } from "./checks.ts";
export { FAIL_CHECK_ERROR, HealthState, SHUTDOWN_ERROR, type HealthStateOptions } from "./health-state.ts";
export {
  HEALTH_CONTENT_TYPE,
  healthNotFound,
  healthResponse,
  parseHealthPath,
  type HealthPath,
  type HealthResponse,
} from "./health-response.ts";
