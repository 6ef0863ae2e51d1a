import { describe, expect, it } from "vitest";
import { codeSpan, escapeMarkdown, fenced, MAX_FAILURES_LISTED, summaryMarkdown } from "./markdown.ts";
import { caseResult, runResults, sampleResults, trickyResults } from "./test-support/fixtures.ts";

// The cells of a GFM table row, split on pipes that are not backslash-escaped.
function cells(row: string): string[] {
  return row
    .replace(/^\|\s*|\s*\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

describe("summaryMarkdown", () => {
  const md = summaryMarkdown(sampleResults());

  it("has a title with the target and dialect, and a totals line", () => {
    expect(md.split("\n")[0]).toBe("# ❌ Conformance: `https://cluster.example:6443` (kubernetes)");
    expect(md).toContain("**6 cases: 1 passed, 1 failed, 3 skipped, 1 error**");
    expect(md.endsWith("\n")).toBe(true);
  });

  it("has a per-area table with a total row", () => {
    const rows = md.split("\n").filter((line) => line.startsWith("|"));
    expect(rows.map(cells)).toEqual([
      ["area", "pass", "fail", "skip", "error"],
      ["---", "---:", "---:", "---:", "---:"],
      ["auth", "0", "0", "2", "0"],
      ["errors", "0", "0", "0", "1"],
      ["paging", "1", "1", "0", "0"],
      ["watch", "0", "0", "1", "0"],
      ["**total**", "**1**", "**1**", "**3**", "**1**"],
    ]);
  });

  it("lists each failure and error with its clauses (id and spec text), a rerun command and the message", () => {
    const failures = md.slice(md.indexOf("## Failures (2)"), md.indexOf("## Skipped"));
    expect(failures).toContain("### ❌ `paging/rv0-any` (fail, area paging)");
    expect(failures).toContain(
      "  - `doc1/4.7/list/match-unset/limit-unset/rv-0`: List, resourceVersionMatch unset, limit unset, resourceVersion 0: Any.",
    );
    expect(failures).toContain(
      "- rerun: `npx tsx scripts/cli.ts conformance --server https://cluster.example:6443 --dialect kubernetes --focus '^paging/rv0-any$'`",
    );
    expect(failures).not.toContain("--token");
    expect(failures).toContain("```text\nexpected at most 2 items, got 5\n```");
    expect(failures).toContain("### 💥 `errors/gone-watch` (error, area errors)");
    expect(failures).not.toContain("auth/forbidden");
  });

  it("groups skips by reason, the largest group first", () => {
    const skipped = md.slice(md.indexOf("## Skipped (3)"));
    expect(skipped.split("\n").filter((line) => line.startsWith("- "))).toEqual([
      "- **needs --restricted-token or --restricted-kubeconfig** (2): `auth/forbidden`, `auth/forbidden-dry-run`",
      "- **slow: run with --slow** (1): `watch/bookmark-slow`",
    ]);
  });

  it("omits empty sections and says so for a run without cases", () => {
    const empty = summaryMarkdown(runResults([]));
    expect(empty).toContain("No cases ran.");
    expect(empty).not.toContain("## Failures");
    expect(empty).not.toContain("## Skipped");
    expect(summaryMarkdown(runResults([caseResult({ id: "a/b" })]))).toMatch(/^# ✅ /);
  });

  it("escapes pipes in table cells and markup everywhere, so a tricky area neither splits a row nor injects HTML", () => {
    const tricky = summaryMarkdown(trickyResults());
    const row = tricky.split("\n").find((line) => line.startsWith("| tricky"))!;
    expect(cells(row)).toHaveLength(5);
    expect(row).toContain("tricky \\<area\\> \\& \\\"co\\\" \\| x");
    expect(tricky).not.toMatch(/(?<!\\)<area>/);
    expect(tricky).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });

  it("caps the failures listed, counting the rest", () => {
    const many = runResults(Array.from({ length: MAX_FAILURES_LISTED + 3 }, (_, index) => caseResult({ id: `a/c${index}`, status: "fail", message: "x" })));
    const text = summaryMarkdown(many);
    expect(text.match(/^### /gm)).toHaveLength(MAX_FAILURES_LISTED);
    expect(text).toContain("… and 3 more: see junit.xml or report.html.");
  });
});

describe("Markdown escaping helpers", () => {
  it("codeSpan uses a fence longer than any backtick run and pads edge backticks", () => {
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`x`")).toBe("`` `x` ``");
    expect(codeSpan("two\nlines")).toBe("`two lines`");
  });

  it("fenced uses a fence no line inside can close", () => {
    expect(fenced("a\n```\nb")).toBe("````text\na\n```\nb\n````");
  });

  it("escapeMarkdown backslash-escapes emphasis, links, HTML and pipes on one line", () => {
    expect(escapeMarkdown("*a* _b_ [c](d) <e> f|g\nh")).toBe("\\*a\\* \\_b\\_ \\[c\\]\\(d\\) \\<e\\> f\\|g h");
  });
});
