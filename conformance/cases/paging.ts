/** Paging with continue tokens (doc 1 §2.3, §4.6.3). */
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import type { CaseContext } from "../case-context.ts";
import { recordOf, type JsonRecord } from "../client/json-fields.ts";
import { configMaps, createConfigMaps } from "./support/config-maps.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { expectRecord } from "./support/json-guards.ts";
import { itemNames, listItems } from "./support/list-body.ts";
import { expectObject, metadataOf } from "./support/object-body.ts";
import { q } from "./support/query.ts";

/** Follows continue tokens from a first page; returns every page. */
async function allPages(context: CaseContext, firstQuery: string, between?: () => Promise<void>): Promise<JsonRecord[]> {
  const pages: JsonRecord[] = [];
  let query = firstQuery;
  for (let round = 0; round < 50; round++) {
    const page = await context.client.get(`${configMaps(context)}?${query}`);
    check(page.status === 200, `list ?${query} answered ${page.status}: ${recordOf(page.json).message ?? ""}`);
    const body = expectRecord(page.json, `list ?${query}`);
    pages.push(body);
    const token = metadataOf(body).continue;
    if (token === undefined || token === "") {
      // Deviation continue-when-complete, tolerant (dialect-answers.ts): doc 1 §2.3 "Empty string
      // when the list is complete" reads as "" or as a field left out; Kubernetes leaves it out.
      checkAnswerForm(context.dialect, "continue-when-complete", token === undefined ? "omitted" : "empty", "metadata.continue of the last page");
      return pages;
    }
    await between?.();
    query = `limit=2&continue=${q(String(token))}`;
  }
  throw new Error("more than 50 pages for a handful of objects");
}

export const pagingCases = defineCases("paging", [
  {
    name: "pages-concatenate-to-the-collection",
    clauses: ["doc1/4.6/paging/follow-continue", "doc1/2.3/continue/next-chunk", "doc1/2.3/continue/empty-when-complete", "doc1/2.3/items", "doc1/2.3/kind/list-suffix"],
    tags: ["mutating"],
    async run(context) {
      const names = await createConfigMaps(context, "page", 5);
      const pages = await allPages(context, "limit=2");
      checkEqual(pages.map((page) => page.kind), pages.map(() => "ConfigMapList"), "kind of every page");
      checkEqual(pages.flatMap(itemNames), names, "items of all pages, in order");
      check(pages.every((page) => listItems(page, "a page").length <= 2), `a page held more than limit=2 items: ${pages.map((p) => listItems(p, "a page").length)}`);
    },
  },
  {
    name: "constant-resource-version-and-snapshot",
    clauses: ["doc1/4.6/paging/constant-resource-version", "doc1/4.6/paging/snapshot", "doc1/2.3/resource-version/constructed-at"],
    tags: ["mutating"],
    async run(context) {
      const names = await createConfigMaps(context, "snap", 4);
      let written = 0;
      const pages = await allPages(context, "limit=2", async () => {
        // Changes after the first page's version must not show up in later pages.
        await context.client.post(configMaps(context), { metadata: { name: `snap-late-${written++}` } });
        await context.client.delete(`${configMaps(context)}/${names[3]}`).catch(() => undefined);
      });
      const versions = new Set(pages.map((page) => expectObject(page, "a page").metadata.resourceVersion));
      checkEqual(versions.size, 1, `distinct metadata.resourceVersion across pages (${[...versions]})`);
      checkEqual(pages.flatMap(itemNames), names, "items of all pages (the snapshot of the first page)");
    },
  },
  {
    name: "remaining-item-count",
    clauses: ["doc1/2.3/remaining-item-count/later-items", "doc1/2.3/remaining-item-count/omitted-when-complete"],
    tags: ["mutating"],
    async run(context) {
      await createConfigMaps(context, "count", 5);
      const pages = await allPages(context, "limit=2");
      checkEqual(pages.map((page) => expectObject(page, "a page").metadata.remainingItemCount), [3, 1, undefined], "remainingItemCount of each page");
    },
  },
  {
    name: "remaining-item-count-omitted-with-selector",
    clauses: ["doc1/2.3/remaining-item-count/omitted-with-selector"],
    tags: ["mutating"],
    async run(context) {
      await createConfigMaps(context, "sel", 4, (index) => ({ parity: index % 2 === 0 ? "even" : "odd" }));
      const page = await context.client.get(`${configMaps(context)}?limit=1&labelSelector=${q("parity=even")}`);
      checkEqual(page.status, 200, "status");
      checkEqual(itemNames(page.json).length, 1, "items on the first page");
      const { metadata } = expectObject(page.json, "the first page");
      check(metadata.continue !== undefined && metadata.continue !== "", "a continue token for the second match");
      checkEqual(metadata.remainingItemCount, undefined, "remainingItemCount with a label selector");
    },
  },
]);
