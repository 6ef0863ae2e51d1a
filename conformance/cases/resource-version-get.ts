/**
 * resourceVersion semantics of a get (doc 1 §4.7): one case per cell of the get table, generated
 * from spec/doc1/resource-version-tables.ts.
 *
 * Versions are opaque (doc 1 §4.7): the cases compare them only for equality, and judge "not older
 * than" by content: a read must show every write the client saw complete before the version.
 */
import { getTableCells, readSemantics, type ReadSemantic, type TableCell } from "../../spec/doc1/resource-version-tables.ts";
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { configMaps } from "./support/config-maps.ts";
import { versionOf } from "./support/object-states.ts";
import { q } from "./support/query.ts";
import { caseName, testable } from "./support/resource-version-cells.ts";
import { createObject, scope, updateObject } from "./support/scoped-objects.ts";
import { message } from "./support/status-answers.ts";


async function runGetCell(context: CaseContext, cell: TableCell<ReadSemantic>): Promise<void> {
  const objects = scope(context, "get");
  const name = objects.name("a");
  const created = await createObject(context, name, { v: "1" });
  const updated = await updateObject(context, name, { v: "2" });
  const other = await createObject(context, objects.name("b"), { v: "1" });
  const states = [versionOf(created.object), versionOf(updated.object)];
  const path = `${configMaps(context)}/${name}`;
  if (cell.answer.kind !== "semantic") throw new Error(`the get table has no invalid cell (${cell.clause})`);
  const semantic = cell.answer.semantic;
  switch (semantic) {
    case "MostRecent": {
      const response = await context.client.get(path);
      check(response.status === 200, `GET ${name} (Most Recent): expected 200, got ${response.status}: ${message(response)}`);
      checkEqual(versionOf(response.json), versionOf(updated.object), `GET ${name} (Most Recent) right after a write: data.v and resourceVersion of the object`);
      return;
    }
    case "Any": {
      // Any may be stale: a cache may not have the object yet; give it a moment, then any real state is right.
      let response = await context.client.get(`${path}?resourceVersion=0`);
      for (let attempt = 0; response.status === 404 && attempt < 5; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        response = await context.client.get(`${path}?resourceVersion=0`);
      }
      check(response.status === 200, `GET ${name}?resourceVersion=0 (Any): expected 200, got ${response.status}: ${message(response)}`);
      const got = versionOf(response.json);
      check(
        states.some((state) => state.v === got.v && state.resourceVersion === got.resourceVersion),
        `GET ${name}?resourceVersion=0 (Any): ${got.v}@${got.resourceVersion} is a state the object never had (${states.map((s) => `${s.v}@${s.resourceVersion}`).join(", ")})`,
      );
      return;
    }
    case "NotOlderThan": {
      // A version after both writes to the object: the object's state must be its last one.
      const version = String(other.resourceVersion);
      const response = await context.client.get(`${path}?resourceVersion=${q(version)}`);
      check(response.status === 200, `GET ${name}?resourceVersion=${version} (Not older than): expected 200, got ${response.status}: ${message(response)}`);
      checkEqual(
        versionOf(response.json),
        versionOf(updated.object),
        `GET ${name}?resourceVersion=${version} (Not older than a version after its last write): data.v and resourceVersion`,
      );
      return;
    }
    default:
      throw new Error(`the get table has no ${semantic} cell`);
  }
}

export const resourceVersionGetCases = defineCases(
  "resource-version",
  getTableCells.map((cell) => ({
    name: caseName(cell.clause),
    clauses: testable([cell.clause, ...cell.related, ...(cell.answer.kind === "semantic" ? readSemantics[cell.answer.semantic].clauses : [])]),
    tags: ["mutating"] as const,
    run: (context: CaseContext) => runGetCell(context, cell),
  })),
);
