/** The `/metrics` endpoint. */
import type { ServerContext } from "../server-context.ts";

/**
 * `/metrics` in Prometheus' text format, as kube-apiserver serves it (to users allowed `get` on the
 * path): the open watches, and what the process hosting the server reports (serve: memory, open
 * connections, timers), so a load run can read any server's memory and count what is left behind.
 */
export function metricsResponse(context: ServerContext): Response {
  // A broadcast is one store subscription serving many watchers: count the watchers.
  const { watchBroadcasts } = context;
  const watchers = context.store.openWatches - watchBroadcasts.broadcasts + watchBroadcasts.watchers;
  const lines = ["# TYPE apiserver_registered_watchers gauge", `apiserver_registered_watchers ${watchers}`, ...(context.hostMetrics?.() ?? [])];
  return new Response(`${lines.join("\n")}\n`, { status: 200, headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
}
