/**
 * Continue tokens over time and out of place (doc 1 §4.2, §7, §8): a token lives for the history
 * window (5 minutes by default) and then gets 410 Expired; a token the server did not issue for
 * this collection is refused. Ids are `paging/continue-token-...`, beside paging.ts's cases.
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { fieldAt, recordOf } from "../client/json-fields.ts";
import { describeRetention } from "../retention.ts";
import { configMaps } from "./support/config-maps.ts";
import { isGoneStatus, wellInsideRetentionMs } from "./support/expired-versions.ts";
import { itemsOf } from "./support/list-body.ts";
import { metadataOf } from "./support/object-body.ts";
import { q } from "./support/query.ts";
import { createObject, scope, updateObject, type Scope } from "./support/scoped-objects.ts";
import { message } from "./support/status-answers.ts";

const LIMIT = 2;

/** Name → data.v of the case's items. */
function stateOf(items: readonly unknown[], objects: Scope): string {
  return items
    .filter((item) => objects.ours(metadataOf(item).name))
    .map((item) => `${metadataOf(item).name}=${fieldAt(item, "data", "v")}`)
    .join(", ");
}

/** Objects x-0 … x-4, a first page of limit 2 with its continue token, then writes after it (x-3 changed, x-5 created). */
async function firstPageThenWrites(context: CaseContext, prefix: string): Promise<{ objects: Scope; page: unknown; token: string; snapshot: string; latest: Map<string, string> }> {
  const objects = scope(context, prefix);
  const latest = new Map<string, string>();
  for (let index = 0; index < 5; index++) {
    await createObject(context, objects.name(String(index)), { v: "1" });
    latest.set(objects.name(String(index)), "1");
  }
  const first = await context.client.get(`${configMaps(context)}?limit=${LIMIT}`);
  check(first.status === 200, `setup: list ?limit=${LIMIT} answered ${first.status}: ${message(first)}`);
  const token = metadataOf(first.json).continue;
  check(typeof token === "string" && token !== "", `setup: a first page of limit ${LIMIT} over 5 objects carried no continue token: ${first.text.slice(0, 200)}`);
  const snapshot = [...latest].map(([name, v]) => `${name}=${v}`).join(", ");
  await updateObject(context, objects.name("3"), { v: "late" });
  latest.set(objects.name("3"), "late");
  await createObject(context, objects.name("5"), { v: "late" });
  latest.set(objects.name("5"), "late");
  return { objects, page: first.json, token, snapshot, latest };
}

/** Follows continue tokens from `token`; returns the pages. */
async function follow(context: CaseContext, token: string): Promise<unknown[]> {
  const pages: unknown[] = [];
  let next: string | undefined = token;
  for (let round = 0; next !== undefined && next !== ""; round++) {
    check(round < 20, "more than 20 pages for a handful of objects");
    const page = await context.client.get(`${configMaps(context)}?limit=${LIMIT}&continue=${q(next)}`);
    check(page.status === 200, `list ?limit=${LIMIT}&continue=… answered ${page.status}: ${message(page)}`);
    pages.push(page.json);
    const following = metadataOf(page.json).continue;
    next = following === undefined ? undefined : String(following);
  }
  return pages;
}

export const pagingExpiryCases = defineCases("paging", [
  {
    name: "continue-token-expires-410",
    clauses: ["doc1/7/410/continue-expired", "doc1/8/continue-token-lifetime"],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const { objects, page, token, latest } = await firstPageThenWrites(context, "exp");
      await updateObject(context, objects.name("4"), { v: "later" });
      latest.set(objects.name("4"), "later");
      const retention = await context.retention();
      const outcome = await context.pollUntil({
        what: `the continue token to expire (410; ${describeRetention(retention)})`,
        withinMs: retention.certainlyGoneMs,
        probe: async () => {
          const response = await context.client.get(`${configMaps(context)}?limit=${LIMIT}&continue=${q(token)}`);
          return response.status === 200 ? undefined : response;
        },
      });
      check(outcome.value !== undefined, `a continue token still served a page ${Math.round(outcome.waitedMs / 1000)} s after later writes (${describeRetention(retention)}): expected 410 Expired by then`);
      const expired = outcome.value;
      check(
        expired.status === 410 && isGoneStatus(expired.json),
        `a continue token ${Math.round(outcome.waitedMs / 1000)} s after later writes (${describeRetention(retention)}): expected 410 with a Status (reason Expired), got ${expired.status}: ${message(expired)}`,
      );
      // Deviation expired-continue-token: Kubernetes offers a token that goes on from the same place
      // at the latest version (inconsistently); a server may also offer none.
      const offered = metadataOf(expired.json).continue;
      if (offered === undefined || offered === "") return;
      check(typeof offered === "string", `metadata.continue of the 410 should be a string, got ${JSON.stringify(offered)}`);
      const items = itemsOf(page).map((item) => String(metadataOf(item).name));
      const lastKey = items[items.length - 1] ?? "";
      const rest = (await follow(context, offered)).flatMap((p) => itemsOf(p));
      const expected = [...latest]
        .filter(([name]) => name > lastKey)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, v]) => `${name}=${v}`)
        .join(", ");
      checkEqual(stateOf(rest, objects), expected, `the list continued with the 410's token: the objects after ${lastKey}, as they are now`);
    },
  },
  {
    name: "continue-token-valid-within-lifetime",
    clauses: ["doc1/8/continue-token-lifetime", "doc1/4.6/paging/constant-resource-version", "doc1/4.7/semantic/continue-token-exact"],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      // Learned first: measuring it takes time, which the token must not spend.
      const retention = await context.retention();
      const { objects, page, token, snapshot } = await firstPageThenWrites(context, "live");
      // Well inside the lifetime (doc 1 §8: 5 minutes by default; the server's own when it keeps less).
      const waitMs = wellInsideRetentionMs(retention);
      await context.advance(waitMs);
      const pages = await follow(context, token);
      checkEqual(
        pages.map((p) => metadataOf(p).resourceVersion),
        pages.map(() => metadataOf(page).resourceVersion),
        `metadata.resourceVersion of the pages after waiting ${waitMs / 1000} s, against the first page's`,
      );
      checkEqual(stateOf([...itemsOf(page), ...pages.flatMap((p) => itemsOf(p))], objects), snapshot, "all pages: the objects as they were at the first page");
    },
  },
  {
    name: "continue-token-not-issued-400",
    clauses: ["doc1/4.2/continue/not-a-token", "doc1/4.2/continue"],
    tags: ["mutating"],
    async run(context) {
      const { token } = await firstPageThenWrites(context, "bad");
      // Altered so that no server can read it as the token it issued: cut short, or lengthened.
      for (const [what, value] of [
        ["a value that is no token", "not-a-token"],
        ["the token cut short by 4 characters", token.slice(0, -4)],
        ["the token with a character added", `${token}x`],
      ] as const) {
        const response = await context.client.get(`${configMaps(context)}?limit=${LIMIT}&continue=${q(value)}`);
        check(response.status === 400 && recordOf(response.json).reason === "BadRequest", `continue with ${what}: expected 400 BadRequest, got ${response.status}: ${message(response)}`);
      }
    },
  },
  {
    name: "continue-token-of-another-collection",
    clauses: ["doc1/4.2/continue/not-a-token", "doc1/4.2/continue"],
    tags: ["mutating"],
    async run(context) {
      const { objects, token } = await firstPageThenWrites(context, "other");
      const response = await context.client.get(`/api/v1/namespaces/${context.namespace}/secrets?limit=${LIMIT}&continue=${q(token)}`);
      // Our server refuses it (400). Kubernetes' tokens hold a key relative to the collection, so it
      // continues the Secrets from that key instead: right too, as long as no ConfigMap comes back.
      if (response.status === 400) {
        checkEqual(recordOf(response.json).reason, "BadRequest", "reason of the 400 for a ConfigMap list's continue token sent to Secrets");
        return;
      }
      check(response.status === 200, `a ConfigMap list's continue token sent to the Secrets: expected 400, or a list of Secrets; got ${response.status}: ${message(response)}`);
      checkEqual(recordOf(response.json).kind, "SecretList", "kind of the list of Secrets continued with a ConfigMap list's token");
      const leaked = itemsOf(response.json, "the list of Secrets").filter((item) => objects.ours(metadataOf(item).name) || recordOf(item).kind === "ConfigMap");
      check(leaked.length === 0, `the Secrets list served ConfigMaps of the token's collection: ${leaked.map((item) => metadataOf(item).name).join(", ")}`);
    },
  },
]);
