/**
 * A writer of a soak run: creates, updates (unconditioned, conditioned on a version read just
 * before, or on one remembered from long ago), merge patches, label flips (moving the object in
 * and out of the selector), deletes (with and without a precondition), as its plan says, on a few
 * hot keys and many cold ones. Every write that changes an object sets `data.v` to
 * `<client>-<sequence>`, a value no other write of the run sets (sim/history/api-history.ts).
 * Conflicts (409), missing objects (404) and names taken (409) are expected and recorded.
 */
import type { WriteOperation } from "../../sim/history/api-history.ts";
import { deletedObjectState, failedAnswer, objectState } from "./history-objects.ts";
import { interruptiblePause } from "./interruptible-pause.ts";
import { recordedGet } from "./recorded-get.ts";
import type { SoakClientContext } from "./soak-client-context.ts";
import type { WriterStep } from "./soak-plan.ts";
import { SELECTED_LABEL } from "./soak-settings.ts";

/** Runs writer `index` until the workload stops. */
export async function runWriter(context: SoakClientContext, index: number): Promise<void> {
  const client = `writer-${index}`;
  const next = context.plan.writer(index);
  // The last version of each key this writer saw in its own answers: what `remembered` sends.
  const remembered = new Map<string, string>();
  let sequence = 0;
  while (!context.workloadStop.aborted) {
    const step = next();
    await interruptiblePause(step.pauseMs, context.workloadStop);
    if (context.workloadStop.aborted) break;
    const precondition = await preconditionOf(context, client, step, remembered);
    if (precondition === "skip") continue;
    const value = step.kind === "delete" ? undefined : `${client}-${++sequence}`;
    const operation = await write(context, client, step, precondition, value);
    if (operation.answer.type !== "ok") continue;
    if (step.kind === "delete") remembered.delete(step.key);
    else remembered.set(step.key, operation.answer.object.resourceVersion);
  }
}

/**
 * The version the write is conditioned on: none, the one a GET just returned, or the one
 * remembered (a fresh read when nothing is remembered yet, for an update; none for the others).
 * "skip" when the read found no object to update.
 */
async function preconditionOf(context: SoakClientContext, client: string, step: WriterStep, remembered: ReadonlyMap<string, string>): Promise<string | undefined | "skip"> {
  if (step.kind === "create" || step.precondition === "none") return undefined;
  const known = remembered.get(step.key);
  if (step.precondition === "remembered" && (known !== undefined || step.kind !== "update")) return known;
  const read = await recordedGet(context, client, step.key, undefined);
  return read.answer.type === "ok" ? read.answer.object.resourceVersion : "skip";
}

async function write(context: SoakClientContext, client: string, step: WriterStep, precondition: string | undefined, value: string | undefined): Promise<WriteOperation> {
  const { connection, recorder } = context;
  const itemPath = `${connection.collectionPath}/${step.key}`;
  let verb: WriteOperation["verb"];
  let labels: WriteOperation["labels"];
  let send: () => ReturnType<typeof connection.request>;
  switch (step.kind) {
    case "create": {
      verb = "create";
      labels = { [SELECTED_LABEL]: step.selected };
      const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: step.key, labels }, data: { v: value } };
      send = () => connection.request("POST", connection.collectionPath, body);
      break;
    }
    case "update": {
      verb = "update";
      labels = { [SELECTED_LABEL]: step.selected };
      const metadata = { name: step.key, labels, ...(precondition !== undefined && { resourceVersion: precondition }) };
      send = () => connection.request("PUT", itemPath, { apiVersion: "v1", kind: "ConfigMap", metadata, data: { v: value } });
      break;
    }
    case "patch":
    case "label-flip": {
      verb = "patch";
      labels = step.kind === "label-flip" ? { [SELECTED_LABEL]: step.selected } : {};
      const metadata = {
        ...(step.kind === "label-flip" && { labels }),
        ...(precondition !== undefined && { resourceVersion: precondition }),
      };
      const body = { ...(Object.keys(metadata).length > 0 && { metadata }), data: { v: value } };
      send = () => connection.request("PATCH", itemPath, body, "application/merge-patch+json");
      break;
    }
    case "delete": {
      verb = "delete";
      labels = undefined;
      const body = precondition === undefined ? undefined : { apiVersion: "v1", kind: "DeleteOptions", preconditions: { resourceVersion: precondition } };
      send = () => connection.request("DELETE", itemPath, body);
      break;
    }
  }
  const { id, startMs } = recorder.begin();
  const exchange = await send();
  const common = { kind: "write", id, client, startMs, verb, name: step.key, precondition, value, labels } as const;
  const operation: WriteOperation =
    exchange.type === "uncertain"
      ? { ...common, endMs: undefined, answer: { type: "uncertain", error: exchange.error } }
      : {
          ...common,
          endMs: exchange.endMs,
          answer:
            exchange.status >= 200 && exchange.status < 300
              ? { type: "ok", code: exchange.status, object: verb === "delete" ? deletedObjectState(exchange.body) : objectState(exchange.body) }
              : failedAnswer(exchange.status, exchange.body),
        };
  recorder.record(operation);
  return operation;
}
