/**
 * Deletion (doc 1 §3): finalization then removal; deletionTimestamp set on the first delete and
 * never moved; finalizers removed in any order; removal when the last one goes. Also the deletion
 * of a namespace's contents with it (§2.1.5) and deletecollection with a label selector (§1).
 */
import { defineCases } from "../case-definition.ts";
import type { CaseContext } from "../case-context.ts";
import { check, checkEqual } from "../check.ts";
import { recordOf } from "../client/json-fields.ts";
import { configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { create } from "./support/creates.ts";
import { checkRemovedAnswer } from "./support/delete-answers.ts";
import { dropFinalizers } from "./support/finalizers.ts";
import { itemNames } from "./support/list-body.ts";
import { expectObject, metadataOf, type ObjectBody } from "./support/object-body.ts";
import { checkGone, getObject } from "./support/object-reads.ts";
import { q } from "./support/query.ts";
import { brief } from "./support/status-answers.ts";
import { checkServerNow, nextSecond } from "./support/timestamps.ts";

const HOLD = "example.com/hold";

/** Deletes the object at `path` for the first time; returns the DELETE answer's object. */
async function firstDelete(context: CaseContext, path: string): Promise<ObjectBody> {
  const response = await context.client.delete(path);
  // Transcript delete-with-finalizer: 200 and the object, still there, deletionTimestamp now.
  checkEqual(response.status, 200, `status of the first DELETE of an object with finalizers (${brief(response)})`);
  checkEqual(recordOf(response.json).kind, "ConfigMap", "kind of the DELETE answer (the finalizing object)");
  checkServerNow(metadataOf(response.json).deletionTimestamp, response, "deletionTimestamp of the first DELETE's answer");
  return expectObject(response.json, "the first DELETE's answer");
}

/** Creates ConfigMap `name` with `finalizers` and deletes it once; returns the DELETE answer's object. */
async function createAndDelete(context: CaseContext, name: string, finalizers: string[]): Promise<ObjectBody> {
  await createConfigMap(context, name, { key: "k" }, undefined, finalizers);
  return firstDelete(context, configMapPath(context, name));
}

/** Sets the finalizers of the object at `path` by merge patch; returns the answer. */
async function setFinalizers(context: CaseContext, path: string, finalizers: string[] | null, what: string): Promise<unknown> {
  const response = await context.client.patch(path, { metadata: { finalizers } });
  // Transcript remove-finalizer: 200, also when the patch removes the object.
  checkEqual(response.status, 200, `${what}: status of the PATCH of metadata.finalizers (${brief(response)})`);
  return response.json;
}

export const deletionCases = defineCases("deletion", [
  {
    name: "delete-without-finalizers-removes",
    clauses: ["doc1/3/no-finalizers-removed", "doc1/4.1/modify/returns-object"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("plain");
      const created = await createConfigMap(context, name, { key: "k" });
      check(created.metadata?.deletionTimestamp === undefined, "a new object has a deletionTimestamp");
      const response = await context.client.delete(configMapPath(context, name));
      // Transcript delete-plain; deviation delete-response.
      checkRemovedAnswer(context.dialect, response, "ConfigMap", name, created.metadata.uid, "DELETE of an object without finalizers");
      await checkGone(context, configMapPath(context, name), "after the DELETE of an object without finalizers");
      const list = await context.client.get(configMaps(context));
      check(!itemNames(list.json).includes(name), `the list still holds ${name} after its DELETE`);
    },
  },
  {
    name: "first-delete-sets-deletion-timestamp-and-keeps-the-object",
    clauses: ["doc1/3/first-delete", "doc1/2.2/deletion-timestamp/first-delete", "doc1/3/two-phases"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("first");
      const path = configMapPath(context, name);
      try {
        await createConfigMap(context, name, { key: "k" }, undefined, [HOLD]);
        const live = await getObject(context, path, "the live object");
        checkEqual(live.metadata?.deletionTimestamp, undefined, "deletionTimestamp before any DELETE (nil)");
        const deleted = await firstDelete(context, path);
        // Finalizing: still retrievable, with the same deletionTimestamp and finalizers (transcript get-finalizing).
        const finalizing = await getObject(context, path, "the finalizing object");
        checkEqual(finalizing.metadata?.deletionTimestamp, deleted.metadata.deletionTimestamp, "stored deletionTimestamp after the first DELETE");
        checkEqual(finalizing.metadata?.finalizers, [HOLD], "finalizers of the finalizing object");
        checkEqual(finalizing.metadata?.uid, live.metadata.uid, "uid of the finalizing object");
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "only-a-delete-sets-deletion-timestamp",
    clauses: ["doc1/2.2/deletion-timestamp/first-delete", "doc1/3/first-delete"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("not-by-update");
      const path = configMapPath(context, name);
      try {
        await createConfigMap(context, name, { key: "k" }, undefined, [HOLD]);
        // An update naming a deletionTimestamp does not start deletion. Kubernetes may refuse it
        // (422, an immutable field) or drop the field; either way the object stays live.
        const current = await getObject(context, path, "the live object");
        const put = await context.client.put(path, { ...current, metadata: { ...current.metadata, deletionTimestamp: "2000-01-01T00:00:00Z" } });
        check(put.status === 200 || put.status === 422, `PUT naming a deletionTimestamp: expected 200 (field ignored) or 422 (refused), got ${put.status}: ${brief(put)}`);
        const patch = await context.client.patch(path, { metadata: { deletionTimestamp: "2000-01-01T00:00:00Z" } });
        check(patch.status === 200 || patch.status === 422, `merge PATCH naming a deletionTimestamp: expected 200 (field ignored) or 422 (refused), got ${patch.status}: ${brief(patch)}`);
        const live = await getObject(context, path, "the object after the updates");
        checkEqual(live.metadata?.deletionTimestamp, undefined, "deletionTimestamp after updates naming one (nil until the first DELETE)");
        // Once set by the DELETE, an update can neither clear nor move it.
        const deleted = await firstDelete(context, path);
        const clear = await context.client.patch(path, { metadata: { deletionTimestamp: null } });
        check(clear.status === 200 || clear.status === 422, `merge PATCH clearing deletionTimestamp: expected 200 (field ignored) or 422 (refused), got ${clear.status}: ${brief(clear)}`);
        const stored = await getObject(context, path, "the finalizing object after a PATCH clearing deletionTimestamp");
        checkEqual(stored.metadata?.deletionTimestamp, deleted.metadata.deletionTimestamp, "deletionTimestamp after a PATCH clearing it");
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "later-deletes-keep-the-deletion-timestamp",
    clauses: ["doc1/3/delete-again", "doc1/3/first-delete"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("again");
      const path = configMapPath(context, name);
      try {
        const first = await createAndDelete(context, name, [HOLD]);
        const stamp = first.metadata.deletionTimestamp;
        // A second later, so a moved timestamp would show.
        await nextSecond(context);
        for (const attempt of [2, 3]) {
          const again = await context.client.delete(path);
          // Transcript delete-again: 200 with the object, deletionTimestamp as before.
          checkEqual(again.status, 200, `status of DELETE number ${attempt} (${brief(again)})`);
          checkEqual(metadataOf(again.json).deletionTimestamp, stamp, `deletionTimestamp in the answer to DELETE number ${attempt}`);
        }
        const stored = await getObject(context, path, "the finalizing object after later DELETEs");
        checkEqual(stored.metadata?.deletionTimestamp, stamp, "stored deletionTimestamp after later DELETEs");
        checkEqual(stored.metadata?.finalizers, [HOLD], "finalizers after later DELETEs (a delete removes none)");
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "removing-one-of-two-finalizers-keeps-the-object",
    clauses: ["doc1/3/finalizers/entries-remain"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("two");
      const path = configMapPath(context, name);
      try {
        const deleted = await createAndDelete(context, name, ["example.com/a", "example.com/b"]);
        const answer = await setFinalizers(context, path, ["example.com/b"], "removing example.com/a");
        checkEqual(metadataOf(answer).finalizers, ["example.com/b"], "finalizers in the PATCH answer");
        const stored = await getObject(context, path, "the object with one finalizer left");
        checkEqual(stored.metadata?.finalizers, ["example.com/b"], "stored finalizers");
        checkEqual(stored.metadata?.deletionTimestamp, deleted.metadata.deletionTimestamp, "deletionTimestamp while entries remain");
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "removing-the-last-finalizer-removes-the-object",
    clauses: ["doc1/3/finalizers/last-removed", "doc1/3/two-phases"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("last");
      const path = configMapPath(context, name);
      try {
        await createAndDelete(context, name, [HOLD]);
        // Transcripts remove-finalizer, get-after-finalize.
        await setFinalizers(context, path, null, "removing the last finalizer");
        await checkGone(context, path, "after the last finalizer was removed");
        const list = await context.client.get(configMaps(context));
        check(!itemNames(list.json).includes(name), `the list still holds ${name} after its last finalizer went`);
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "finalizers-removed-in-any-order",
    clauses: ["doc1/3/finalizers/any-order", "doc1/3/finalizers/entries-remain", "doc1/3/finalizers/last-removed"],
    tags: ["mutating"],
    async run(context) {
      const finalizers = ["example.com/first", "example.com/second", "example.com/third"];
      // The same three finalizers, removed in the listed order, in reverse, and from the middle out.
      const orders = [
        [0, 1, 2],
        [2, 1, 0],
        [1, 2, 0],
      ];
      const paths: string[] = [];
      try {
        for (const order of orders) {
          const name = context.name(`order-${order.join("")}`);
          const path = configMapPath(context, name);
          paths.push(path);
          await createAndDelete(context, name, finalizers);
          let left = [...finalizers];
          for (const index of order) {
            left = left.filter((finalizer) => finalizer !== finalizers[index]);
            await setFinalizers(context, path, left.length === 0 ? null : left, `order ${order.join(",")}: removing ${finalizers[index]}`);
            if (left.length > 0) {
              const stored = await getObject(context, path, `order ${order.join(",")}: the object with ${left.join(", ")} left`);
              checkEqual(stored.metadata?.finalizers, left, `order ${order.join(",")}: stored finalizers`);
            }
          }
          await checkGone(context, path, `order ${order.join(",")}: after every finalizer was removed`);
        }
      } finally {
        for (const path of paths) await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "deletecollection-removes-only-matching",
    clauses: ["doc1/1/verbs/several-resources"],
    tags: ["mutating"],
    async run(context) {
      const set = context.name("dc");
      const matching = [`${set}-even-0`, `${set}-even-2`];
      const others = [`${set}-odd-1`, `${set}-odd-3`];
      for (const name of matching) await createConfigMap(context, name, {}, { set, tier: "even" });
      for (const name of others) await createConfigMap(context, name, {}, { set, tier: "odd" });
      // Transcript deletecollection: DELETE on the collection path with a labelSelector, 200.
      const response = await context.client.delete(`${configMaps(context)}?labelSelector=${q(`set=${set},tier=even`)}`);
      checkEqual(response.status, 200, `status of the deletecollection (${brief(response)})`);
      for (const name of matching) await checkGone(context, configMapPath(context, name), `${name} (matched the selector)`);
      for (const name of others) await getObject(context, configMapPath(context, name), `${name} (did not match the selector)`);
      const left = await context.client.get(`${configMaps(context)}?labelSelector=${q(`set=${set}`)}`);
      checkEqual(itemNames(left.json).sort(), others.sort(), "objects of the set left after the deletecollection");
    },
  },
  {
    name: "namespace-deletion-deletes-its-objects",
    clauses: ["doc1/2.1/namespace-deletion-cascades"],
    tags: ["mutating"],
    async run(context) {
      // The case deletes its own namespace (the only one it owns) and waits for its contents to go.
      const paths = [configMapPath(context, context.name("cascade")), configMapPath(context, context.name("cascade"))];
      for (const path of paths) await createConfigMap(context, path.split("/").at(-1)!, { key: "k" });
      const secret = `/api/v1/namespaces/${context.namespace}/secrets/${context.name("cascade")}`;
      await create(context, `/api/v1/namespaces/${context.namespace}/secrets`, { apiVersion: "v1", kind: "Secret", metadata: { name: secret.split("/").at(-1) }, data: {} }, "creating a Secret");
      paths.push(secret);
      for (const path of paths) await getObject(context, path, "an object of the namespace before its deletion");
      const deleted = await context.client.delete(`/api/v1/namespaces/${context.namespace}`);
      // Transcript namespace-delete: 200, the namespace Terminating.
      checkEqual(deleted.status, 200, `status of DELETE of the namespace (${brief(deleted)})`);
      // The contents go once the namespace is deleted: at once on the embedded server, within seconds on a real one.
      const deadline = 80;
      let remaining = paths;
      for (let round = 0; round <= deadline && remaining.length > 0; round++) {
        if (round > 0) await context.advance(250);
        const still: string[] = [];
        for (const path of remaining) {
          const response = await context.client.get(path);
          if (response.status !== 404) still.push(path);
        }
        remaining = still;
      }
      check(remaining.length === 0, `20 s after the namespace's DELETE these objects still exist: ${remaining.join(", ")}`);
    },
  },
]);
