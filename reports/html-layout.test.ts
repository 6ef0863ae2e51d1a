/**
 * report.html as a reader's browser lays it out: a headless Chromium renders a failing run shaped
 * like a real one (seven failures of a paging defect: long continue tokens in URLs and messages,
 * 2 KB JSON list bodies, 15 exchanges each, several clauses) at 1,400 × 900 and reports its sizes.
 * Bounds: nothing wider than the window; the Failures section at most 750 px per failure on
 * average and no failure taller than 900 px (message, clauses, rerun command, the failing exchange
 * open with request and response side by side, bodies scrolling past 15rem, the other exchanges
 * one collapsed line each); the coverage matrix, collapsed by section, under 2,000 px.
 * Skipped when no Chromium is on PATH.
 */
import { describe, expect, it } from "vitest";
import type { CaseResult, Exchange } from "../conformance/results.ts";
import { findChromium, measureLayout } from "./browser-layout.ts";
import { reportHtml } from "./html.ts";
import { caseResult, exchange, runResults } from "./test-support/fixtures.ts";

const browser = findChromium();

/** A continue token as the embedded server makes them: base64url JSON and a signature, ~250 characters. */
function token(n: number): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, rv: 700 + n, p: `configmaps/orb-conformance-a0b6b7-${n}/`, k: `configmaps/orb-conformance-a0b6b7-${n}/rv-a0b6b7-0-1\u0000` })).toString("base64url");
  return `${payload}.hhAh6rn8ZFBOIam-9kjpiQ`;
}

function configMapList(names: readonly string[], next: string): string {
  return JSON.stringify({
    kind: "ConfigMapList",
    apiVersion: "v1",
    metadata: { resourceVersion: "754", continue: next, remainingItemCount: names.length },
    items: names.map((name, index) => ({
      metadata: { name, namespace: "orb-conformance-a0b6b7-78", uid: `0b6b7${index}-1111-2222-3333-444455556666`, resourceVersion: String(750 + index), creationTimestamp: "2026-11-28T13:34:31Z", labels: { set: "rv-a0b6b7-0" } },
      data: { value: `${index}`.repeat(40) },
    })),
  });
}

function failingCase(n: number): CaseResult {
  const ns = `/api/v1/namespaces/orb-conformance-a0b6b7-${n}`;
  const continued = `?limit=2&continue=${token(n)}`;
  const transcript: Exchange[] = [
    exchange({ method: "POST", path: "/api/v1/namespaces", status: 201, responseBody: JSON.stringify({ kind: "Namespace", metadata: { name: `orb-conformance-a0b6b7-${n}` } }) }),
    ...Array.from({ length: 5 }, (_, index) =>
      exchange({ method: "POST", path: `${ns}/configmaps`, status: 201, requestBody: JSON.stringify({ metadata: { name: `rv-${index}` }, data: { value: "x" } }) }),
    ),
    exchange({ method: "PATCH", path: `${ns}/configmaps/rv-0`, requestBody: '{"data":{"value":"y"}}' }),
    exchange({ path: `${ns}/configmaps`, responseBody: configMapList(["rv-0", "rv-1", "rv-2", "rv-3", "rv-4"], "") }),
    exchange({ path: `${ns}/configmaps?limit=2`, responseBody: configMapList(["rv-0", "rv-1"], token(n)) }),
    exchange({ method: "PATCH", path: `${ns}/configmaps/rv-3`, requestBody: '{"data":{"value":"z"}}' }),
    exchange({ method: "POST", path: `${ns}/configmaps`, status: 201 }),
    exchange({ path: `${ns}/configmaps${continued}`, responseBody: configMapList(["rv-3"], token(n + 1)) }),
    exchange({ path: `${ns}/configmaps?limit=2&continue=${token(n + 1)}`, responseBody: configMapList([], "") }),
    exchange({ path: `${ns}/configmaps?limit=2&continue=${token(n + 2)}&resourceVersion=0`, responseBody: configMapList([], "") }),
    exchange({ method: "DELETE", path: ns, responseBody: JSON.stringify({ kind: "Namespace", status: { phase: "Terminating" } }) }),
  ];
  return caseResult({
    id: `resource-version/list/match-unset/limit-continue/rv-${n}`,
    clauses: ["doc1/4.6/paging/follow-continue", "doc1/2.3/continue/next-chunk", "doc1/2.3/continue/empty-when-complete", "doc1/2.3/items", "doc1/2.3/kind/list-suffix"],
    status: "fail",
    durationMs: 120,
    message: `list ${continued} (Continue Token, Exact): the first page and the pages after it must show the objects at the first page's version, without later writes: expected rv-0=2@773, rv-1=1@769, rv-2=1@770, rv-3=1@771, rv-4=1@772, got rv-0=2@773, rv-1=1@769, rv-3=1@771`,
    transcript,
  });
}

function failingRun() {
  const passing = Array.from({ length: 150 }, (_, index) => caseResult({ id: `crud/case-${index}`, clauses: ["doc1/2.2/other-fields"] }));
  return runResults([...Array.from({ length: 7 }, (_, n) => failingCase(n)), ...passing]);
}

// Typed into the filter box after load: the page's own script (allowed by its CSP hash) must run.
const FILTER_PROBE = `
  const box = document.getElementById("case-filter");
  const shownBefore = !box.parentElement.hidden;
  box.value = "rv-3 fail";
  box.dispatchEvent(new Event("input"));
  return { shownBefore, visibleRows: [...document.querySelectorAll("#case-list tr[data-filter]")].filter((row) => !row.hidden).length, count: document.getElementById("case-filter-count").textContent, listOpen: document.getElementById("case-list").open };
`;

describe("report.html in a browser", () => {
  (browser === undefined ? it.skip : it)(
    browser === undefined ? "lays out within the window (skipped: no chromium, chromium-browser or google-chrome on PATH)" : "keeps a failing run's report within a 1,400 px window and each failure short",
    () => {
      const layout = measureLayout(browser!, reportHtml(failingRun()), 1400, 900, FILTER_PROBE);
      expect(layout.overflowing).toEqual([]);
      expect(layout.scrollWidth).toBeLessThanOrEqual(1400);
      expect(layout.failureCount).toBe(7);
      expect(layout.sections["failures"]! / layout.failureCount).toBeLessThanOrEqual(750);
      for (const height of layout.failureHeights) expect(height).toBeLessThanOrEqual(900);
      expect(layout.sections["coverage"]).toBeLessThan(2000);
      expect(layout.probe).toEqual({ shownBefore: true, visibleRows: 1, count: "1 of 157 cases", listOpen: true });
    },
    60_000,
  );
});
