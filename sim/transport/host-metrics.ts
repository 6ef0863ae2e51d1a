/**
 * The `/metrics` lines the process serving the API adds (ApiServerOptions.hostMetrics): resident
 * memory under kube-apiserver's own name, so a load run reads either server the same way, and what
 * a client that went away could leave behind (connections, requests in flight, timers, handles).
 */
import type { HttpServerHandle } from "./http-server.ts";

/** Prometheus text lines describing this process and its HTTP server now. */
export function hostMetricLines(http: Pick<HttpServerHandle, "openConnections" | "requestsInFlight"> | undefined): string[] {
  const resources = process.getActiveResourcesInfo();
  const count = (kind: string) => resources.filter((resource) => resource === kind).length;
  return [
    "# TYPE process_resident_memory_bytes gauge",
    `process_resident_memory_bytes ${process.memoryUsage.rss()}`,
    "# TYPE nodejs_heap_used_bytes gauge",
    `nodejs_heap_used_bytes ${process.memoryUsage().heapUsed}`,
    "# TYPE nodejs_active_timers gauge",
    `nodejs_active_timers ${count("Timeout")}`,
    "# TYPE nodejs_active_sockets gauge",
    `nodejs_active_sockets ${count("TCPSocketWrap")}`,
    ...(http === undefined
      ? []
      : ["# TYPE orb_http_open_connections gauge", `orb_http_open_connections ${http.openConnections}`, "# TYPE orb_http_requests_in_flight gauge", `orb_http_requests_in_flight ${http.requestsInFlight}`]),
  ];
}

/** The value of one unlabelled metric in a Prometheus text body, or undefined. */
export function metricValue(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  return match === null ? undefined : Number(match[1]);
}
