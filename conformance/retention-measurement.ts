/**
 * Measuring a real server's retention when nobody said it (issue #13): replace a ConfigMap, then
 * poll an Exact list at the replaced version until it answers 410 (doc 1 §7: Exact at a version no
 * longer retained), bounded by doc 1 §8's default. Exact lists are answered from storage, not from
 * a watch cache, so this sees the compaction itself. Run once per run, in the namespace of the
 * first case that needs it.
 */
import type { CaseContext } from "./case-context.ts";
import { CaseFailure } from "./case-outcome.ts";
import { fieldAt } from "./client/json-fields.ts";
import { DOCUMENTED_RETENTION, retentionFromMeasurement, type Retention } from "./retention.ts";

/** The retention of the target `context` talks to, measured (taking up to the documented bound). */
export async function measureRetention(context: Pick<CaseContext, "client" | "namespace" | "name" | "pollUntil">): Promise<Retention> {
  const collection = `/api/v1/namespaces/${context.namespace}/configmaps`;
  const name = context.name("retention-probe");
  const created = await context.client.post(collection, { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v: "1" } });
  if (created.status !== 201 && created.status !== 200) throw new CaseFailure(`measuring the server's retention: creating ConfigMap ${name} answered ${created.status}`);
  const version = String(fieldAt(created.json, "metadata", "resourceVersion") ?? "");
  const replaced = await context.client.patch(`${collection}/${name}`, { data: { v: "2" } });
  if (replaced.status !== 200) throw new CaseFailure(`measuring the server's retention: patching ConfigMap ${name} answered ${replaced.status}`);
  const query = `${collection}?resourceVersionMatch=Exact&resourceVersion=${encodeURIComponent(version)}&fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`;
  const outcome = await context.pollUntil({
    what: "the server to compact a replaced version (measuring its retention: an Exact list answering 410)",
    withinMs: DOCUMENTED_RETENTION.certainlyGoneMs,
    probe: async () => {
      const response = await context.client.get(query);
      if (response.status === 200) return undefined;
      if (response.status === 410) return true;
      throw new CaseFailure(`measuring the server's retention: an Exact list at resourceVersion ${version} answered ${response.status}, neither the list nor 410`);
    },
  });
  return retentionFromMeasurement(outcome.value === undefined ? undefined : outcome.waitedMs);
}
