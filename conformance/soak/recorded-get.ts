/** A GET of one ConfigMap, sent and recorded (by readers, and by writers reading before a conditioned write). */
import type { GetOperation } from "../../sim/history/api-history.ts";
import { failedAnswer, objectState } from "./history-objects.ts";
import type { SoakClientContext } from "./soak-client-context.ts";

/** Gets `name` at `resourceVersion` (undefined: Most Recent; "0": Any; else Not older than, doc 1 §4.7) and records it. */
export async function recordedGet(context: SoakClientContext, client: string, name: string, resourceVersion: string | undefined): Promise<GetOperation> {
  const { connection, recorder } = context;
  const query = resourceVersion === undefined ? "" : `?resourceVersion=${encodeURIComponent(resourceVersion)}`;
  const { id, startMs } = recorder.begin();
  const exchange = await connection.request("GET", `${connection.collectionPath}/${name}${query}`);
  const operation: GetOperation =
    exchange.type === "uncertain"
      ? { kind: "get", id, client, startMs, endMs: undefined, name, resourceVersion, answer: { type: "uncertain", error: exchange.error } }
      : {
          kind: "get",
          id,
          client,
          startMs,
          endMs: exchange.endMs,
          name,
          resourceVersion,
          answer: exchange.status === 200 ? { type: "ok", object: objectState(exchange.body) } : failedAnswer(exchange.status, exchange.body),
        };
  recorder.record(operation);
  return operation;
}
