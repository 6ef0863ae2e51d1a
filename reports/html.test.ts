import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deviations } from "../spec/dialects.ts";
import { everyClause } from "../spec/doc1/clauses.ts";
import { failingExchange, prettyJson, reportHtml } from "./html.ts";
import { caseResult, exchange, runResults, sampleResults, trickyResults } from "./test-support/fixtures.ts";

const VOID = new Set(["meta", "br", "input", "hr", "img", "link", "wbr"]);

// Tags balance (void elements aside), attributes are quoted, and no text holds a raw `<` or `>`.
function expectBalancedTags(html: string): void {
  const stack: string[] = [];
  const body = html
    .replace(/^<!DOCTYPE html>\n/, "")
    .replace(/<style>[\s\S]*?<\/style>/, "<style></style>")
    .replace(/<script>[\s\S]*?<\/script>/, "<script></script>");
  for (const match of body.matchAll(/<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*>|[<>]/g)) {
    if (match[2] === undefined) throw new Error(`raw ${match[0]} at ${match.index}: ${body.slice(match.index - 40, match.index + 40)}`);
    const name = match[2];
    if (match[1] === "/") {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}> at ${match.index}`);
    } else if (!VOID.has(name)) stack.push(name);
  }
  expect(stack).toEqual([]);
}

function clauseRow(html: string, id: string): string {
  const match = new RegExp(`<tr class="row [^"]*" id="[^"]*" data-clause="${id.replace(/[.]/g, "\\.")}">.*?</tr>`).exec(html);
  if (match === null) throw new Error(`no row for ${id}`);
  return match[0];
}

describe("reportHtml", () => {
  const html = reportHtml(sampleResults());

  it("is self-contained: one inline script allowed by its hash, no links, external URLs in attributes or CSS, and a CSP that forbids loading", () => {
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts).toHaveLength(1);
    const [, attributes, script] = scripts[0]!;
    expect(attributes).toBe("");
    expect(script).not.toMatch(/[<>&]|https?:|fetch|XMLHttpRequest|import\(/);
    const hash = createHash("sha256").update(script!, "utf8").digest("base64");
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/\ssrc=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<(iframe|img|object|embed)/i);
    for (const [, value] of html.matchAll(/\s(?:href|action)="([^"]*)"/g)) expect(value).toMatch(/^#/);
    for (const [, value] of html.matchAll(/\s[a-z-]+="([^"]*)"/g)) expect(value).not.toMatch(/https?:\/\//);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'">`);
    expectBalancedTags(html);
  });

  it("shows the summary with totals and the per-area table", () => {
    expect(html).toContain("<title>Conformance: https://cluster.example:6443 (kubernetes)</title>");
    expect(html).toMatch(/6 cases: <span class="badge pass">1 passed<\/span> <span class="badge fail">1 failed<\/span>/);
    expect(html).toContain(`<tr class="fail"><th scope="row">paging</th><td>2</td><td>1</td><td>1</td><td>0</td><td>0</td><td>370 ms</td></tr>`);
  });

  it("has a coverage row for every clause, doc 1 in document order, then Kubernetes beyond it", () => {
    const ids = [...html.matchAll(/data-clause="([^"]*)"/g)].map((match) => match[1]);
    expect(ids).toEqual(everyClause.map((clause) => clause.id));
  });

  it("marks uncovered testable clauses, failing clauses (with the cell's row), untestable ones with why, and gaps", () => {
    expect(clauseRow(html, "doc1/4.7/get/rv-0")).toContain(`<span class="verdict uncovered">UNCOVERED</span>`);
    const cell = clauseRow(html, "doc1/4.7/list/match-unset/limit-unset/rv-0");
    expect(cell).toContain(`class="row fail"`);
    expect(cell).toContain(`<a href="#case-1">paging/rv0-any</a>`);
    expect(cell).toContain("FAILING");
    const row = clauseRow(html, "doc1/4.7/list/match-unset/limit-unset");
    expect(row).toContain("FAILING");
    expect(row).toContain("(via cell)");
    expect(clauseRow(html, "doc1/4.7/opaque")).toMatch(/<td>no: a client obligation: .*<\/td>.*not testable/);
    const gap = clauseRow(html, "doc1/5/forbidden");
    expect(gap).toContain("gap: filled by Kubernetes");
    expect(gap).toContain("Kubernetes: 403 Forbidden");
    expect(gap).toContain("skipped only");
  });

  it("details each failure with its message once, clauses, rerun command and the failing exchange open", () => {
    const failure = html.slice(html.indexOf(`<details class="case fail" id="case-1" open>`), html.indexOf(`<details class="case error"`));
    expect(failure.split("expected at most 2 items, got 5")).toHaveLength(2);
    expect(failure).toContain(`<pre class="message">expected at most 2 items, got 5</pre>`);
    expect(failure).toContain("List, resourceVersionMatch unset, limit unset, resourceVersion 0: Any.");
    expect(failure).toContain("--focus '^paging/rv0-any$'");
    expect(failure).toContain(
      `<details class="exchange failing" open><summary class="headline">#1 <span class="s2xx">GET /api/v1/namespaces/default/configmaps?limit=2&amp;resourceVersion=0 → 200 (3 ms)</span> <strong class="marker">◀ failing exchange</strong></summary>`,
    );
    expect(failure).toContain("&lt; content-type: application/json");
    expect(failure).toContain(`{\n  "kind": "ConfigMapList",\n  "metadata": {\n    "resourceVersion": "12"\n  }\n}`);
    expect(failure).toContain("#1, the last exchange, is marked and open.");
    expect(html).toContain(`<details class="case error" id="case-2" open>`);
    expect(html).toContain(`<span class="none">GET /api/v1/configmaps?watch=1&amp;resourceVersion=1 → no response (3 ms)</span>`);
  });

  it("marks the exchange the message names, else one without a response, else the last before the cleanup; the others collapsed", () => {
    const ns = "/api/v1/namespaces/orb-conformance-1";
    const transcript = [
      exchange({ method: "POST", path: "/api/v1/namespaces", status: 201 }),
      exchange({ path: `${ns}/configmaps?limit=2` }),
      exchange({ path: `${ns}/configmaps?limit=2&continue=abc.def` }),
      exchange({ path: `${ns}/configmaps?limit=2&continue=abc.def&resourceVersion=0` }),
      exchange({ method: "DELETE", path: ns }),
    ];
    expect(failingExchange(transcript, "list ?limit=2&continue=abc.def (Continue Token): expected 3 items")).toEqual({ index: 2, why: "the request the failure message names" });
    expect(failingExchange(transcript, "list ?limit=2 must …")).toEqual({ index: 1, why: "the request the failure message names" });
    expect(failingExchange(transcript, `GET ${ns}/configmaps?limit=2&continue=abc.def&resourceVersion=0: got 500`)?.index).toBe(3);
    expect(failingExchange(transcript, "items differ")).toEqual({ index: 3, why: "the last exchange before the cleanup" });
    expect(failingExchange([...transcript.slice(0, 2), exchange({ status: 0 }), ...transcript.slice(2)], "timed out")).toEqual({ index: 2, why: "the last request without a response" });
    expect(failingExchange([], "x")).toBeUndefined();

    const page = reportHtml(runResults([caseResult({ id: "paging/x", status: "fail", message: "list ?limit=2&continue=abc.def: wrong", transcript })]));
    expect(page.match(/<details class="exchange failing" open>/g)).toHaveLength(1);
    expect(page.match(/<details class="exchange">/g)).toHaveLength(4);
    expect(page).toContain(`<details class="others"><summary>2 exchanges before it (#1–#2)</summary>`);
    expect(page).toContain(`<details class="others"><summary>2 exchanges after it (#4–#5)</summary>`);
    expect(page).toContain("#3, the request the failure message names, is marked and open.");
  });

  it("pretty-prints compact JSON bodies, one document or one per line, and leaves anything else as recorded", () => {
    expect(prettyJson('{"a":[1,{"b":"c"}]}')).toBe('{\n  "a": [\n    1,\n    {\n      "b": "c"\n    }\n  ]\n}');
    expect(prettyJson('{"type":"ADDED"}\n{"type":"DELETED"}\n')).toBe('{\n  "type": "ADDED"\n}\n{\n  "type": "DELETED"\n}');
    expect(prettyJson('{"n":12345678901234567890}')).toBe('{"n":12345678901234567890}');
    expect(prettyJson('{\n  "already": "pretty"\n}')).toBe('{\n  "already": "pretty"\n}');
    expect(prettyJson("not json")).toBe("not json");
    expect(prettyJson('{"cut":"of')).toBe('{"cut":"of');
    const truncated = reportHtml(
      runResults([caseResult({ id: "a/b", status: "fail", transcript: [exchange({ responseBody: '{"kind":"List"}', truncated: true })] })]),
    );
    expect(truncated).toContain(`{"kind":"List"}\n[… body cut to 4 KiB when recorded]`);
  });

  it("lists every deviation of doc 1 vs Kubernetes with the target dialect's answer", () => {
    const section = html.slice(html.indexOf(`<section id="deviations">`), html.indexOf(`<section id="cases">`));
    expect(section.match(/<tr><td><code>/g)).toHaveLength(deviations.length);
    expect(section).toContain("<strong>kubernetes</strong>");
    expect(section).toContain("<td>HTTP 200, then one ERROR event with a 410 Expired Status</td>");
    const orb = reportHtml(runResults([], { target: { url: "http://127.0.0.1:1", kind: "embedded", dialect: "orb", serverVersion: "" } }));
    expect(orb).toContain("<td>HTTP 410 with an Expired Status</td>");
    const other = reportHtml(runResults([], { target: { url: "x", kind: "server", dialect: "auto", serverVersion: "" } }));
    expect(other).toContain("<em>dialect auto is not known</em>: orb answers HTTP 410 with an Expired Status; kubernetes answers HTTP 200");
  });

  it("escapes everything from the run: tricky ids, areas, messages, headers and bodies", () => {
    const tricky = reportHtml(trickyResults());
    expectBalancedTags(tricky);
    expect(tricky).toContain(`<code>tricky/"quoted" &lt;id&gt; &amp; 'more' | pipe</code>`);
    expect(tricky).not.toContain("<id>");
    expect(tricky).not.toContain("<area>");
    expect(tricky).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/);
    expect(tricky).toContain("Cases name clause ids not in the doc 1 catalog: <code>doc1/not-a-clause</code>");
    expect(tricky).toMatch(/\[… \d+ more bytes not shown\]/);
    expect(tricky.length).toBeLessThan(200_000);
  });

  it("collapses the coverage matrix by section of doc 1, counting passing, failing and uncovered clauses", () => {
    const section = html.slice(html.indexOf(`<section id="coverage">`), html.indexOf(`<section id="deviations">`));
    const groups = [...section.matchAll(/<details class="area-group( problems)?" id="coverage-\d+"><summary>§([^:]+): (\d+) clauses?: (.*?)<\/summary>/g)];
    expect(groups.length).toBe(new Set(everyClause.map((clause) => clause.section)).size);
    expect(section).not.toMatch(/<details class="area-group[^"]*"[^>]* open/);
    expect(groups.reduce((sum, group) => sum + Number(group[3]), 0)).toBe(everyClause.length);
    const failing = groups.filter((group) => group[4]!.includes("FAILING"));
    expect(failing.length).toBeGreaterThan(0);
    for (const group of failing) expect(group[1]).toBe(" problems");
    expect(groups.find((group) => group[2] === "4.7")?.[4]).toMatch(
      /<span class="verdict pass">\d+ passing<\/span>, <span class="verdict fail">\d+ FAILING<\/span>, <span class="verdict uncovered">\d+ UNCOVERED<\/span>, \d+ other/,
    );
  });

  it("has a filter box over all cases, shown by the script, and rows carrying id and status", () => {
    expect(html).toContain(`<p class="filter" hidden><label for="case-filter">Filter cases by id or status:</label> <input type="search" id="case-filter"`);
    expect(html).toContain(`<tr class="fail" data-filter="paging/rv0-any fail">`);
    expect(html.match(/<tr class="[a-z]+" data-filter="/g)).toHaveLength(6);
  });

  it("starts failures collapsed when there are many", () => {
    const many = reportHtml(runResults(Array.from({ length: 30 }, (_, index) => caseResult({ id: `a/c${index}`, status: "fail" }))));
    expect(many).toContain(`<details class="case fail" id="case-0">`);
    expect(many).not.toContain(`<details class="case fail" id="case-0" open>`);
  });
});
