/**
 * Tables (doc 1 §2.5, §9.2 the Table media type's version): of a collection, of one object and of
 * a watch, and the columns of every served type.
 *
 * The default Table (doc 1 §2.5: Name and Created At for a type with no Table of its own) is
 * checked where a target serves such a type. Kubernetes 1.26 prints its own columns for every
 * built-in type the suite uses (transcripts table-*: ConfigMaps have Data and Age, Leases Holder
 * and Age); the one type known to print the default Table is CustomResourceDefinition
 * (apiextensions.k8s.io, whose storage uses apiserver's default table convertor). The embedded
 * server serves no such type, so there the default-table check has nothing to look at; see
 * `table-columns-of-served-types`.
 */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { WatchLine, WatchStream } from "../client/conformance-client.ts";
import { fieldAt } from "../client/json-fields.ts";
import { configMapPath, configMaps, createConfigMap, labelledConfigMaps } from "./support/config-maps.ts";
import { itemNames } from "./support/list-body.ts";
import { checkContentType, JSON_TYPE, tableAccept } from "./support/media-types.ts";
import { metadataOf } from "./support/object-body.ts";
import { q } from "./support/query.ts";
import { builtInCollections, CRD_GROUP, servesCustomResourceDefinitions } from "./support/served-types.ts";
import { brief } from "./support/status-answers.ts";
import { checkDefaultTable, checkTable, rowNames } from "./support/tables.ts";

/** Reads events from a stream until `count` were read whose Table row (or object) `ours` accepts, the stream ends, or 10 s pass. */
async function collectLines(stream: WatchStream, count: number, ours: (line: WatchLine) => boolean): Promise<{ all: WatchLine[]; mine: WatchLine[] }> {
  const all: WatchLine[] = [];
  const mine: WatchLine[] = [];
  const deadline = Date.now() + 10_000;
  while (mine.length < count) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const next = await stream.next(remaining);
    if (next === undefined || next === "timeout") break;
    all.push(next);
    if (ours(next)) mine.push(next);
  }
  return { all, mine };
}

/** The name in the single row of a Table event's object (or the object's own name). */
function tableEventName(line: WatchLine): unknown {
  const row = fieldAt(line.object, "rows", 0);
  return fieldAt(row, "object", "metadata", "name") ?? fieldAt(row, "cells", 0);
}

export const representationTableCases = defineCases("representations", [
  {
    name: "table-of-a-collection",
    clauses: ["doc1/2.5/kind", "doc1/2.5/api-version", "doc1/2.5/column-definitions", "doc1/4.3/accept/table", "doc1/9/table-version", "doc1/4.3/content-type/response"],
    tags: ["mutating"],
    async run(context) {
      const { names, selector } = await labelledConfigMaps(context, "table");
      const accept = tableAccept(context);
      const response = await context.client.get(`${configMaps(context)}?${selector}`, { accept });
      checkEqual(response.status, 200, `list with Accept "${accept}": status (${brief(response)})`);
      // A Table is JSON (transcripts table-*).
      checkContentType(response, JSON_TYPE, `list with Accept "${accept}"`);
      const table = checkTable(response.json, context.dialect.metaGroup, "the Table of a list of three ConfigMaps");
      checkEqual(table.rows.length, names.length, "number of rows of the Table (one per object)");
      checkEqual(rowNames(table, table.columns!, "the Table of a list"), names, "names in the rows of the Table, in list order");
      const json = await context.client.get(`${configMaps(context)}?${selector}`);
      checkEqual(itemNames(json.json), names, "items of the same list in JSON");
    },
  },
  {
    name: "table-of-one-object",
    clauses: ["doc1/2.5/kind", "doc1/2.5/api-version", "doc1/2.5/column-definitions", "doc1/4.3/accept/table", "doc1/4.3/content-type/response"],
    tags: ["mutating"],
    async run(context) {
      const name = context.name("one");
      const created = await createConfigMap(context, name, { a: "1", b: "2" });
      const accept = tableAccept(context);
      const response = await context.client.get(configMapPath(context, name), { accept });
      checkEqual(response.status, 200, `GET of one ConfigMap with Accept "${accept}": status (${brief(response)})`);
      checkContentType(response, JSON_TYPE, `GET of one ConfigMap with Accept "${accept}"`);
      const table = checkTable(response.json, context.dialect.metaGroup, "the Table of one ConfigMap");
      checkEqual(table.rows.length, 1, "number of rows of the Table of one object");
      checkEqual(rowNames(table, table.columns!, "the Table of one object"), [name], "name in the row of the Table of one object");
      // Transcript table-configmap-one: the Table's metadata carries the object's resourceVersion.
      checkEqual(metadataOf(response.json).resourceVersion, created.metadata.resourceVersion, "metadata.resourceVersion of the Table of one object");
    },
  },
  {
    name: "table-on-a-watch",
    clauses: ["doc1/2.5/kind", "doc1/2.5/api-version", "doc1/2.5/column-definitions", "doc1/4.3/accept/table", "doc1/4.3/content-type/response"],
    tags: ["mutating"],
    async run(context) {
      const prefix = context.name("tw");
      const a = `${prefix}-a`;
      const b = `${prefix}-b`;
      await createConfigMap(context, a, { v: "1" });
      const listed = await context.client.get(configMaps(context));
      check(listed.status === 200, `setup: list answered ${listed.status}`);
      const version = String(metadataOf(listed.json).resourceVersion ?? "");
      await context.client.patch(configMapPath(context, a), { data: { v: "2" } });
      await createConfigMap(context, b, { v: "1" });
      const deleted = await context.client.delete(configMapPath(context, b));
      check(deleted.status === 200 || deleted.status === 202, `setup: DELETE of ${b} answered ${deleted.status}`);
      const accept = tableAccept(context);
      // Transcript watch-as-table: every event's object is a one-row Table.
      const stream = await context.client.watch(`${configMaps(context)}?watch=1&resourceVersion=${q(version)}`, { accept });
      let collected: { all: WatchLine[]; mine: WatchLine[] };
      try {
        checkEqual(stream.status, 200, `watch with Accept "${accept}": status`);
        checkContentType(stream, JSON_TYPE, `watch with Accept "${accept}"`);
        collected = await collectLines(stream, 3, (line) => String(tableEventName(line)).startsWith(`${prefix}-`));
      } finally {
        await stream.close();
      }
      checkEqual(
        collected.mine.map((line) => [line.type, tableEventName(line)]),
        [
          ["MODIFIED", a],
          ["ADDED", b],
          ["DELETED", b],
        ],
        "events (type, name in the row) of the watch from before the changes",
      );
      for (const [index, line] of collected.all.entries()) {
        if (line.type === "BOOKMARK" || line.type === "ERROR") continue;
        // The first event carries the column definitions; later ones may send null.
        const table = checkTable(line.object, context.dialect.metaGroup, `the object of watch event ${index + 1} (${line.type})`, index === 0 ? "required" : "optional");
        checkEqual(table.rows.length, 1, `rows of the Table of watch event ${index + 1} (${line.type})`);
      }
    },
  },
  {
    name: "table-columns-of-served-types",
    clauses: ["doc1/2.5/column-definitions", "doc1/2.5/default-columns", "doc1/2.5/default-values", "doc1/4.3/accept/table"],
    tags: [],
    async run(context) {
      const accept = tableAccept(context);
      for (const collection of await builtInCollections(context)) {
        const path = `${collection.path(context.namespace)}?limit=5`;
        const response = await context.client.get(path, { accept });
        checkEqual(response.status, 200, `GET ${path} as a Table: status (${brief(response)})`);
        const table = checkTable(response.json, context.dialect.metaGroup, `the Table of ${collection.resource} (${collection.groupVersion})`);
        const names = rowNames(table, table.columns!, `the Table of ${collection.resource}`);
        const objects = table.rows.map((row) => metadataOf(row.object).name);
        checkEqual(names, objects, `names in the rows of the Table of ${collection.resource} vs the rows' objects`);
      }
      // Doc 1 §2.5's default Table, where the target serves a type known to print it (Kubernetes:
      // CustomResourceDefinitions). The embedded server serves none: its built-in types all have
      // columns of their own, as in Kubernetes 1.26, so there is nothing more to check there.
      if (!(await servesCustomResourceDefinitions(context))) return;
      const path = `/apis/${CRD_GROUP}/v1/customresourcedefinitions?limit=20`;
      const response = await context.client.get(path, { accept });
      checkEqual(response.status, 200, `GET ${path} as a Table: status (${brief(response)})`);
      checkDefaultTable(checkTable(response.json, context.dialect.metaGroup, "the Table of customresourcedefinitions"), "the Table of customresourcedefinitions (no Table definition of its own)");
    },
  },
]);
