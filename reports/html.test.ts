import { describe, expect, it } from "vitest";
import { deviations } from "../spec/dialects.ts";
import { everyClause } from "../spec/doc1/clauses.ts";
import { reportHtml } from "./html.ts";
import { caseResult, runResults, sampleResults, trickyResults } from "./test-support/fixtures.ts";

const VOID = new Set(["meta", "br", "input", "hr", "img", "link", "wbr"]);

// Tags balance (void elements aside), attributes are quoted, and no text holds a raw `<` or `>`.
function expectBalancedTags(html: string): void {
  const stack: string[] = [];
  const body = html.replace(/^<!DOCTYPE html>\n/, "").replace(/<style>[\s\S]*?<\/style>/, "<style></style>");
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

  it("is self-contained: no scripts, links, external URLs in attributes or CSS, and a CSP that forbids loading", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/\ssrc=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<(iframe|img|object|embed)/i);
    for (const [, value] of html.matchAll(/\s(?:href|action)="([^"]*)"/g)) expect(value).toMatch(/^#/);
    for (const [, value] of html.matchAll(/\s[a-z-]+="([^"]*)"/g)) expect(value).not.toMatch(/https?:\/\//);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
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

  it("details each failure with its message, clauses, rerun command and transcript", () => {
    const failure = html.slice(html.indexOf(`<details class="case fail" id="case-1" open>`), html.indexOf("</details>\n<details"));
    expect(failure).toContain("expected at most 2 items, got 5");
    expect(failure).toContain("List, resourceVersionMatch unset, limit unset, resourceVersion 0: Any.");
    expect(failure).toContain("--focus '^paging/rv0-any$'");
    expect(failure).toContain(`<span class="s2xx">GET /api/v1/namespaces/default/configmaps?limit=2&amp;resourceVersion=0 → 200 (3 ms)</span>`);
    expect(failure).toContain("&lt; content-type: application/json");
    expect(html).toContain(`<details class="case error" id="case-2" open>`);
    expect(html).toContain(`<span class="none">GET /api/v1/configmaps?watch=1&amp;resourceVersion=1 → no response (3 ms)</span>`);
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

  it("starts failures collapsed when there are many", () => {
    const many = reportHtml(runResults(Array.from({ length: 30 }, (_, index) => caseResult({ id: `a/c${index}`, status: "fail" }))));
    expect(many).toContain(`<details class="case fail" id="case-0">`);
    expect(many).not.toContain(`<details class="case fail" id="case-0" open>`);
  });
});
