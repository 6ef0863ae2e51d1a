/**
 * Versions a server cannot serve (doc 1 §4.7, §7), answers that need time to pass: a version the
 * server has not reached (wait, then 504) and an Exact read of a compacted version (410).
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check } from "../check.ts";
import type { ApiResponse } from "../client/conformance-client.ts";
import { recordOf } from "../client/json-fields.ts";
import { describeRetention } from "../retention.ts";
import { configMaps } from "./support/config-maps.ts";
import { checkAnswerForm } from "./support/dialect-answers.ts";
import { isGoneStatus } from "./support/expired-versions.ts";
import { versionOf } from "./support/object-states.ts";
import { q } from "./support/query.ts";
import { LIMIT } from "./support/resource-version-cells.ts";
import { createObject, listOurs, scope, updateObject } from "./support/scoped-objects.ts";
import { message } from "./support/status-answers.ts";

/** A version far ahead of `current` (decimal versions only: opaque ones cannot be made up). */
function futureVersion(context: CaseContext, current: string, ahead: bigint): string {
  if (!/^[0-9]{1,30}$/.test(current)) {
    context.skip(`resourceVersions of this server are not decimal (${JSON.stringify(current)}): there is no way to name a version it has not reached`);
  }
  return String(BigInt(current) + ahead);
}

/** Awaits `pending` for at most `ms` of real time. */
async function within<T>(pending: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function checkTooLarge(response: ApiResponse, what: string): void {
  check(response.status === 504, `${what}: expected 504 (doc 1 §7: a version the server does not recognize), got ${response.status}: ${message(response)}`);
  const said = String(recordOf(response.json).message ?? response.text);
  check(/too large resource version/i.test(said), `${what}: the message should mention "Too large resource version", got ${JSON.stringify(said.slice(0, 200))}`);
  const retryAfter = response.headers.get("retry-after");
  if (retryAfter !== null) check(/^[0-9]+$/.test(retryAfter.trim()), `${what}: Retry-After should be a number of seconds, got ${JSON.stringify(retryAfter)}`);
}

export const resourceVersionUnavailableCases = defineCases("resource-version", [
  {
    name: "not-older-than-future-version-504",
    clauses: [
      "doc1/7/504/too-large-resource-version",
      "doc1/7/retry-after",
      "doc1/4.7/semantic/not-older-than",
      "doc1/4.7/get/rv-other",
      "doc1/4.7/list/match-unset/limit-unset/rv-other",
      "doc1/4.7/list/not-older-than/limit-unset/rv-other",
    ],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const objects = scope(context, "fut");
      const a = await createObject(context, objects.name("a"), { v: "1" });
      const listed = await listOurs(context, objects);
      const far = futureVersion(context, listed.resourceVersion, 1_000_000n);
      const path = `${configMaps(context)}/${a.name}`;
      // Started, then time moves past the server's bounded wait (Kubernetes: about 3 s), then read.
      const pending = [
        ["GET of one object", context.client.get(`${path}?resourceVersion=${far}`)],
        ["list", context.client.get(`${configMaps(context)}?resourceVersion=${far}`)],
        ["list with resourceVersionMatch=NotOlderThan", context.client.get(`${configMaps(context)}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`)],
      ] as const;
      await context.advance(10_000);
      for (const [what, request] of pending) checkTooLarge(await within(request, 60_000, what), `${what} at resourceVersion ${far}, far ahead of ${listed.resourceVersion}`);
      // A version reached while the server waits: the read succeeds (or, if the server answers at
      // once with Retry-After instead of waiting, doc 1 §7, a 504).
      const fresh = await listOurs(context, objects);
      const next = futureVersion(context, fresh.resourceVersion, 1n);
      const waiting = context.client.get(`${path}?resourceVersion=${next}`);
      const written = await updateObject(context, a.name, { v: "2" });
      await context.advance(1_000);
      const answer = await within(waiting, 60_000, `GET at resourceVersion ${next}`);
      if (answer.status === 504) {
        // Doc 1 §7: a server may answer at once only with Retry-After; Kubernetes without its watch
        // cache answers at once without one (deviation future-version-no-wait).
        if (answer.headers.get("retry-after") === null) {
          checkAnswerForm(context.dialect, "future-version-no-wait", "answers-at-once", `GET at resourceVersion ${next}, reached by a write during the wait, answered 504 without Retry-After (so it did not wait either)`);
        }
        return;
      }
      check(answer.status === 200, `GET at resourceVersion ${next}, reached by a write during the wait: expected 200, got ${answer.status}: ${message(answer)}`);
      // When the write got that very version, the object must show it; on a busy real server another
      // write may have reached the version first, and then the state before the write is not older.
      const allowed = written.resourceVersion === next ? [versionOf(written.object)] : [versionOf(a.object), versionOf(written.object)];
      const got = versionOf(answer.json);
      check(
        allowed.some((state) => state.v === got.v && state.resourceVersion === got.resourceVersion),
        `GET at resourceVersion ${next} (not older than it; the write answered ${written.resourceVersion}): got ${got.v}@${got.resourceVersion}, expected ${allowed.map((s) => `${s.v}@${s.resourceVersion}`).join(" or ")}`,
      );
    },
  },
  {
    name: "exact-compacted-version-410",
    clauses: [
      "doc1/4.7/semantic/exact",
      "doc1/7/410/exact-unavailable",
      "doc1/7/410/outside-retained",
      "doc1/4.7/list/exact/limit-unset/rv-other",
      "doc1/4.7/list/exact/limit-no-continue/rv-other",
      "doc1/4.7/list/match-unset/limit-no-continue/rv-other",
    ],
    tags: ["mutating", "virtual-time"],
    async run(context) {
      const objects = scope(context, "cmp");
      await createObject(context, objects.name("a"), { v: "1" });
      await createObject(context, objects.name("b"), { v: "1" });
      await createObject(context, objects.name("c"), { v: "1" });
      const listed = await listOurs(context, objects);
      // Writes after the version, so that compaction has later revisions to keep.
      await updateObject(context, objects.name("a"), { v: "2" });
      await updateObject(context, objects.name("a"), { v: "3" });
      const version = q(listed.resourceVersion);
      const queries = [`resourceVersionMatch=Exact&resourceVersion=${version}`, `resourceVersionMatch=Exact&resourceVersion=${version}&limit=${LIMIT}`, `resourceVersion=${version}&limit=${LIMIT}`];
      const retention = await context.retention();
      const outcome = await context.pollUntil({
        what: `an Exact list at resourceVersion ${listed.resourceVersion} to answer 410 (${describeRetention(retention)})`,
        withinMs: retention.certainlyGoneMs,
        probe: async () => {
          const response = await context.client.get(`${configMaps(context)}?${queries[0]}`);
          return response.status === 200 ? undefined : response;
        },
      });
      for (const query of queries) {
        const response = await context.client.get(`${configMaps(context)}?${query}`);
        check(
          response.status === 410 && isGoneStatus(response.json),
          `list ?${query}, ${Math.round(outcome.waitedMs / 1000)} s after later writes (${describeRetention(retention)}; Exact at a compacted version): expected 410 with a Status (reason Expired), got ${response.status}: ${message(response)}`,
        );
      }
    },
  },
]);
