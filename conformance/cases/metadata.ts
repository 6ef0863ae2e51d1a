/**
 * Object metadata the API names (doc 1 §2.2) and the values the server generates (§2.7): name
 * from generateName, namespace, resourceVersion, creationTimestamp, uid, finalizers; and that
 * generated values differ between a dry-run and the real request.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { fieldAt, recordOf } from "../client/json-fields.ts";
import { configMap, configMapPath, configMaps, createConfigMap } from "./support/config-maps.ts";
import { checkCreated } from "./support/creates.ts";
import { dropFinalizers } from "./support/finalizers.ts";
import { itemsOf } from "./support/list-body.ts";
import { metadataOf } from "./support/object-body.ts";
import { getObject } from "./support/object-reads.ts";
import { brief, checkFailure } from "./support/status-answers.ts";
import { checkServerNow, nextSecond, timestampMs } from "./support/timestamps.ts";

export const metadataCases = defineCases("metadata", [
  {
    name: "generate-name",
    clauses: ["doc1/2.2/name/generate-name"],
    tags: ["mutating"],
    async run(context) {
      // Transcript create-generate-name: name gen-99zcd from generateName gen-.
      const prefix = "gen-";
      const names: string[] = [];
      for (let index = 0; index < 3; index++) {
        const response = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: prefix }, data: { index: String(index) } });
        const created = checkCreated(response, "POST with generateName");
        const name = created.metadata?.name;
        check(typeof name === "string" && name.startsWith(prefix) && name.length > prefix.length, `the server generated name ${JSON.stringify(name)} from generateName ${prefix}: expected the prefix followed by a random suffix`);
        checkEqual(created.metadata?.generateName, prefix, "metadata.generateName of the created object");
        const stored = await getObject(context, configMapPath(context, name), "the object with the generated name");
        checkEqual(stored.data, { index: String(index) }, `data of ${name}`);
        names.push(name);
      }
      checkEqual(new Set(names).size, names.length, `distinct generated names (${names.join(", ")})`);
    },
  },
  {
    name: "namespace-present-on-namespaced-objects-only",
    clauses: ["doc1/2.2/namespace/present"],
    tags: ["mutating"],
    async run(context) {
      // The body names no namespace; the path does.
      const name = context.name("ns");
      const created = await createConfigMap(context, name);
      checkEqual(created.metadata?.namespace, context.namespace, "metadata.namespace of the create answer");
      const got = await getObject(context, configMapPath(context, name), "the ConfigMap");
      checkEqual(got.metadata?.namespace, context.namespace, "metadata.namespace of a namespaced object");
      const list = await context.client.get(configMaps(context));
      const item = itemsOf(list.json, "the list of ConfigMaps").find((candidate) => metadataOf(candidate).name === name);
      checkEqual(metadataOf(item).namespace, context.namespace, "metadata.namespace of the object as a list item");
      // A namespace is cluster-scoped: no metadata.namespace (transcript namespace-create).
      const namespace = await getObject(context, `/api/v1/namespaces/${context.namespace}`, "the case's namespace");
      check(namespace.metadata?.namespace === undefined, `a cluster-scoped Namespace carries metadata.namespace ${JSON.stringify(namespace.metadata?.namespace)}`);
    },
  },
  {
    name: "resource-version-changes-on-every-write",
    clauses: ["doc1/2.2/resource-version/last-modified"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("rv");
      const path = configMapPath(context, name);
      const created = await createConfigMap(context, name, { step: "0" });
      const versions: unknown[] = [created.metadata.resourceVersion];
      const writes: Array<[string, () => Promise<{ status: number; json: unknown }>]> = [
        ["PUT", () => context.client.put(path, configMap(name, { step: "1" }))],
        ["merge PATCH", () => context.client.patch(path, { data: { step: "2" } })],
        ["JSON PATCH", () => context.client.patch(path, [{ op: "replace", path: "/data/step", value: "3" }], "application/json-patch+json")],
        ["label PATCH", () => context.client.patch(path, { metadata: { labels: { step: "4" } } })],
      ];
      for (const [what, write] of writes) {
        const response = await write();
        check(response.status === 200, `${what}: expected 200, got ${response.status}`);
        const version = metadataOf(response.json).resourceVersion;
        check(typeof version === "string" && version !== "", `${what}: the answer has no resourceVersion`);
        check(!versions.includes(version), `${what} changed the object but its resourceVersion ${version} is one it had before (${versions.join(", ")})`);
        versions.push(version);
        // The stored object is at the version of its last modification.
        const got = await getObject(context, path, `after the ${what}`);
        checkEqual(got.metadata?.resourceVersion, version, `resourceVersion of GET after the ${what} (the write's)`);
      }
      // Reads do not modify: the version stays that of the last write.
      const again = await getObject(context, path, "a second read");
      checkEqual(again.metadata?.resourceVersion, versions.at(-1), "resourceVersion after reads only");
    },
  },
  {
    name: "creation-timestamp-set-at-creation-only",
    clauses: ["doc1/2.2/creation-timestamp/set"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("created-at");
      const path = configMapPath(context, name);
      const response = await context.client.post(configMaps(context), configMap(name, { v: "1" }));
      const created = checkCreated(response, "creating the ConfigMap");
      const stamp = created.metadata?.creationTimestamp;
      checkServerNow(stamp, response, "creationTimestamp of the created object");
      // A whole second later, so a timestamp rewritten by an update would show.
      await nextSecond(context);
      const put = await context.client.put(path, configMap(name, { v: "2" }));
      checkEqual(put.status, 200, `status of the PUT (${brief(put)})`);
      checkEqual(metadataOf(put.json).creationTimestamp, stamp, "creationTimestamp after a PUT whose body has none");
      const patched = await context.client.patch(path, { data: { v: "3" } });
      checkEqual(metadataOf(patched.json).creationTimestamp, stamp, "creationTimestamp after a PATCH");
      const got = await getObject(context, path, "the updated object");
      checkEqual(got.metadata?.creationTimestamp, stamp, "stored creationTimestamp after updates");
    },
  },
  {
    name: "uid-unique-and-stable",
    clauses: ["doc1/2.2/uid/unique"],
    tags: ["mutating"],
    async run(context) {
      const names = [0, 1, 2].map(() => context.name("uid"));
      const uids: string[] = [];
      for (const name of names) {
        const created = await createConfigMap(context, name);
        const uid = created.metadata?.uid;
        check(typeof uid === "string" && uid !== "", `${name} has no uid`);
        uids.push(uid);
      }
      checkEqual(new Set(uids).size, uids.length, `distinct uids of three objects (${uids.join(", ")})`);
      const path = configMapPath(context, names[0]!);
      const put = await context.client.put(path, configMap(names[0]!, { changed: "yes" }));
      checkEqual(metadataOf(put.json).uid, uids[0], "uid after a PUT (the same object)");
      const patched = await context.client.patch(path, { data: { changed: "again" } });
      checkEqual(metadataOf(patched.json).uid, uids[0], "uid after a PATCH (the same object)");
      // A new object under a deleted one's name is another object: another uid.
      await context.client.delete(path);
      const reborn = await createConfigMap(context, names[0]!);
      check(!uids.some((uid) => uid === reborn.metadata.uid), `the object re-created under ${names[0]} got uid ${reborn.metadata?.uid}, already used (${uids.join(", ")})`);
    },
  },
  {
    name: "server-sets-uid-and-creation-timestamp",
    clauses: ["doc1/2.2/uid/unique", "doc1/2.2/creation-timestamp/set"],
    tags: ["mutating"],
    async run(context) {
      // The server generates both (doc 1 §2.7); values a client puts in a create are not kept.
      const name = context.name("client-values");
      const clientUid = "00000000-0000-0000-0000-000000000001";
      const clientStamp = "2000-01-01T00:00:00Z";
      const response = await context.client.post(configMaps(context), { apiVersion: "v1", kind: "ConfigMap", metadata: { name, uid: clientUid, creationTimestamp: clientStamp } });
      const created = checkCreated(response, "a create whose body carries uid and creationTimestamp");
      check(typeof created.metadata?.uid === "string" && created.metadata.uid !== "" && created.metadata.uid !== clientUid, `the server kept the client's uid ${clientUid} (got ${JSON.stringify(created.metadata?.uid)})`);
      check(created.metadata?.creationTimestamp !== clientStamp, `the server kept the client's creationTimestamp ${clientStamp}`);
      checkServerNow(created.metadata?.creationTimestamp, response, "creationTimestamp of the created object");
      const got = await getObject(context, configMapPath(context, name), "the created object");
      checkEqual([got.metadata?.uid, got.metadata?.creationTimestamp], [created.metadata.uid, created.metadata.creationTimestamp], "stored uid and creationTimestamp");
      // Nor may an update move creationTimestamp (Kubernetes keeps the stored one).
      const put = await context.client.put(configMapPath(context, name), { apiVersion: "v1", kind: "ConfigMap", metadata: { name, creationTimestamp: clientStamp }, data: { k: "v" } });
      checkEqual(put.status, 200, `status of a PUT whose body carries another creationTimestamp (${brief(put)})`);
      checkEqual(metadataOf(put.json).creationTimestamp, created.metadata.creationTimestamp, "creationTimestamp after a PUT naming another one");
    },
  },
  {
    name: "update-naming-a-deleted-objects-uid-is-refused",
    clauses: ["doc1/2.2/uid/unique", "doc1/2.1/name/reuse-after-delete"],
    tags: ["mutating"],
    async run(context) {
      // A uid names one object for good: an update carrying the uid of a deleted object must not
      // land on the new object that reuses its name (Kubernetes: the uid in the body is a precondition, 409 Conflict).
      const name = context.name("successor");
      const path = configMapPath(context, name);
      const first = await createConfigMap(context, name, { life: "1" });
      await context.client.delete(path);
      const second = await createConfigMap(context, name, { life: "2" });
      check(second.metadata?.uid !== first.metadata.uid, "the re-created object kept the deleted object's uid");
      const put = await context.client.put(path, { apiVersion: "v1", kind: "ConfigMap", metadata: { name, uid: first.metadata.uid }, data: { life: "1-overwrites" } });
      checkFailure(put, 409, "Conflict", "PUT carrying the deleted object's uid onto its successor");
      const got = await getObject(context, path, "the successor");
      checkEqual([got.metadata?.uid, got.data], [second.metadata.uid, { life: "2" }], "uid and data of the successor after the refused PUT");
    },
  },
  {
    name: "finalizers-shared-list",
    clauses: ["doc1/2.2/finalizers/shared"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("shared-fin");
      const path = configMapPath(context, name);
      try {
        const created = await createConfigMap(context, name, {}, undefined, ["example.com/a"]);
        checkEqual(created.metadata?.finalizers, ["example.com/a"], "finalizers of the created object");
        // Another actor adds its entry by update.
        const current = await getObject(context, path, "the object");
        const added = await context.client.put(path, { ...current, metadata: { ...current.metadata, finalizers: ["example.com/a", "example.com/b"] } });
        checkEqual(added.status, 200, `status of a PUT adding a finalizer (${brief(added)})`);
        checkEqual(metadataOf(added.json).finalizers, ["example.com/a", "example.com/b"], "finalizers after a PUT adding one");
        // Any actor may reorder it.
        const reordered = await context.client.patch(path, { metadata: { finalizers: ["example.com/b", "example.com/a"] } });
        checkEqual(reordered.status, 200, `status of a PATCH reordering the finalizers (${brief(reordered)})`);
        checkEqual(metadataOf(reordered.json).finalizers, ["example.com/b", "example.com/a"], "finalizers after the reordering PATCH");
        // And remove another's entry.
        const removed = await context.client.patch(path, [{ op: "remove", path: "/metadata/finalizers/1" }], "application/json-patch+json");
        checkEqual(removed.status, 200, `status of a JSON patch removing a finalizer (${brief(removed)})`);
        checkEqual(metadataOf(removed.json).finalizers, ["example.com/b"], "finalizers after removing example.com/a");
        const got = await getObject(context, path, "the object");
        checkEqual(got.metadata?.finalizers, ["example.com/b"], "stored finalizers");
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
  {
    name: "dry-run-and-real-create-generate-different-values",
    clauses: ["doc1/2.7/generated/name", "doc1/2.7/generated/uid", "doc1/2.7/generated/creation-timestamp", "doc1/2.7/generated/resource-version"],
    tags: ["mutating"],
    async run(context) {
      const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "gen-dry-" }, data: { key: "k" } };
      // Transcripts dryrun-create-generate-name (201, name, uid, creationTimestamp, no resourceVersion) and create-generate-name.
      const dryResponse = await context.client.post(`${configMaps(context)}?dryRun=All`, body);
      const dry = checkCreated(dryResponse, "dry-run create with generateName");
      check(typeof dry.metadata?.name === "string" && dry.metadata.name.startsWith("gen-dry-"), `dry-run create: no name generated from generateName: ${JSON.stringify(dry.metadata)}`);
      const dryStamp = timestampMs(dry.metadata?.creationTimestamp, "creationTimestamp of the dry-run answer");
      check(typeof dry.metadata?.uid === "string" && dry.metadata.uid !== "", `dry-run create: no uid: ${JSON.stringify(dry.metadata)}`);
      // Whole-second timestamps: a second later, a freshly generated creationTimestamp must differ.
      await nextSecond(context);
      const real = checkCreated(await context.client.post(configMaps(context), body), "real create with generateName");
      check(real.metadata?.name !== dry.metadata.name, `the real create got the dry run's generated name ${dry.metadata.name}`);
      check(real.metadata?.uid !== dry.metadata.uid, `the real create got the dry run's uid ${dry.metadata.uid}`);
      const realStamp = timestampMs(real.metadata?.creationTimestamp, "creationTimestamp of the real create");
      check(realStamp !== dryStamp, `the real create, a second after the dry run, has the dry run's creationTimestamp ${dry.metadata.creationTimestamp}`);
      // Deviation dry-run-create-resource-version, tolerant for every dialect (doc 1 §2.7 reads two
      // ways): no resourceVersion, or one that differs.
      check(typeof real.metadata?.resourceVersion === "string" && real.metadata.resourceVersion !== "", "the real create has no resourceVersion");
      check(dry.metadata?.resourceVersion === undefined || dry.metadata.resourceVersion !== real.metadata.resourceVersion, `the dry run and the real create have the same resourceVersion ${real.metadata.resourceVersion}`);
      // Nothing of the dry run was stored.
      const ghost = await context.client.get(configMapPath(context, dry.metadata.name));
      checkEqual(ghost.status, 404, "status of GET of the dry run's generated name");
    },
  },
  {
    name: "dry-run-and-real-service-create-allocate-differently",
    clauses: ["doc1/2.7/generated/service-allocations"],
    tags: ["mutating"],
    async run(context) {
      // Transcripts dryrun-service and service-create: the dry run shows a cluster IP and a node
      // port it does not reserve; the real create allocates its own.
      const body = { apiVersion: "v1", kind: "Service", metadata: { name: context.name("svc") }, spec: { type: "NodePort", ports: [{ port: 80 }] } };
      const services = `/api/v1/namespaces/${context.namespace}/services`;
      const allocation = (service: unknown): [unknown, unknown] => [fieldAt(service, "spec", "clusterIP"), fieldAt(service, "spec", "ports", 0, "nodePort")];
      const dry = checkCreated(await context.client.post(`${services}?dryRun=All`, body), "dry-run create of a NodePort Service");
      const [dryIp, dryPort] = allocation(dry);
      check(typeof dryIp === "string" && dryIp !== "" && typeof dryPort === "number", `the dry-run answer shows no cluster IP and node port: ${JSON.stringify(dry.spec)}`);
      const real = checkCreated(await context.client.post(services, body), "real create of the same Service");
      const [realIp, realPort] = allocation(real);
      check(typeof realIp === "string" && realIp !== "" && typeof realPort === "number", `the real create allocated no cluster IP and node port: ${JSON.stringify(real.spec)}`);
      // Allocations are random: one value may repeat by chance, both together may not.
      check(dryIp !== realIp || dryPort !== realPort, `the real create got the dry run's allocation: cluster IP ${String(realIp)}, node port ${String(realPort)}`);
    },
  },
  {
    name: "dry-run-and-real-delete-set-different-deletion-timestamps",
    clauses: ["doc1/2.7/generated/deletion-timestamp"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("dry-delete");
      const path = configMapPath(context, name);
      try {
        await createConfigMap(context, name, {}, undefined, ["example.com/hold"]);
        const dryResponse = await context.client.delete(`${path}?dryRun=All`);
        checkEqual(dryResponse.status, 200, `status of a dry-run DELETE of an object with a finalizer (${brief(dryResponse)})`);
        checkEqual(recordOf(dryResponse.json).kind, "ConfigMap", "kind of the dry-run DELETE answer (the object that would be finalizing)");
        const dryStamp = checkServerNow(metadataOf(dryResponse.json).deletionTimestamp, dryResponse, "deletionTimestamp of the dry-run DELETE answer");
        const kept = await getObject(context, path, "the object after the dry-run DELETE");
        checkEqual(kept.metadata?.deletionTimestamp, undefined, "stored deletionTimestamp after a dry-run DELETE");
        await nextSecond(context);
        const realResponse = await context.client.delete(path);
        checkEqual(realResponse.status, 200, `status of the real DELETE (${brief(realResponse)})`);
        const realStamp = checkServerNow(metadataOf(realResponse.json).deletionTimestamp, realResponse, "deletionTimestamp of the real DELETE answer");
        check(realStamp !== dryStamp, `the real DELETE, a second after the dry run, set the dry run's deletionTimestamp ${metadataOf(dryResponse.json).deletionTimestamp}`);
      } finally {
        await dropFinalizers(context, path);
      }
    },
  },
]);
