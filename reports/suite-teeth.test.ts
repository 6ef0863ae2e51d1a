/**
 * The published selfcheck score the reports show: it must speak of exactly the defects planted
 * now (a defect added or renamed since needs `orb-harness selfcheck --publish` again), and the
 * HTML and Markdown reports carry it.
 */
import { describe, expect, it } from "vitest";
import { defects } from "../sim/apiserver/defects/defects.ts";
import { reportHtml } from "./html.ts";
import { escapeMarkdown, summaryMarkdown } from "./markdown.ts";
import { publishedSelfcheck, teethText } from "./suite-teeth.ts";
import { runResults, caseResult } from "./test-support/fixtures.ts";

describe("the published selfcheck score", () => {
  const published = publishedSelfcheck();

  it("covers exactly the defects planted now (else: run orb-harness selfcheck --publish)", () => {
    expect(published?.defects.map((defect) => defect.name).sort()).toEqual(defects.map((defect) => defect.name).sort());
    expect(published?.score.planted).toBe(defects.length);
    expect(published?.score.caught).toBe(published?.defects.filter((defect) => defect.caught).length);
  });

  it("is shown in the HTML and Markdown reports with the version and date it was measured on", () => {
    const sentence = teethText(published);
    expect(sentence).toMatch(/^caught \d+ of \d+ planted defects \(suite \d+, fuzz \d+, soak \d+\), measured by orb-harness selfcheck on orb-harness \S+ on \d{4}-\d\d-\d\d$/);
    const results = runResults([caseResult({ id: "a/b" })]);
    expect(reportHtml(results)).toContain(`<dt>suite's teeth</dt><dd>${sentence}</dd>`);
    expect(summaryMarkdown(results)).toContain(`The suite's teeth: ${escapeMarkdown(sentence)}.`);
  });

  it("says when nothing was measured", () => {
    expect(teethText(undefined)).toBe("not measured (run orb-harness selfcheck)");
  });
});
