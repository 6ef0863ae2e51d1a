import { describe, expect, it } from "vitest";
import { junitXml } from "./junit.ts";
import { caseResult, runResults, sampleResults, TRICKY, trickyResults } from "./test-support/fixtures.ts";
import { childElements, parseXml, textContent, type XmlElement } from "./test-support/strict-xml.ts";

function suites(root: XmlElement): XmlElement[] {
  return childElements(root, "testsuite");
}

describe("junitXml", () => {
  it("has one testsuite per area and a testcase per case with classname = area and time in seconds", () => {
    const root = parseXml(junitXml(sampleResults()));
    expect(root.name).toBe("testsuites");
    // time: the run's wall time (startedAt 03:04:05.000 to finishedAt 03:04:17.500), not the cases' 60.4 s summed;
    // no skipped on <testsuites> (Jenkins' junit-10.xsd does not allow it there; each testsuite has it).
    expect(root.attributes).toEqual({ name: "orb-harness conformance: https://cluster.example:6443 (kubernetes)", tests: "6", failures: "1", errors: "1", time: "12.500" });
    expect(suites(root).map((suite) => suite.attributes["name"])).toEqual(["auth", "errors", "paging", "watch"]);
    const paging = suites(root).find((suite) => suite.attributes["name"] === "paging")!;
    expect(paging.attributes).toMatchObject({ tests: "2", failures: "1", errors: "0", skipped: "0", time: "0.370", timestamp: "2025-01-02T03:04:05" });
    const cases = childElements(paging, "testcase");
    expect(cases.map((testcase) => [testcase.attributes["name"], testcase.attributes["classname"], testcase.attributes["time"]])).toEqual([
      ["paging/continue-empty", "paging", "0.120"],
      ["paging/rv0-any", "paging", "0.250"],
    ]);
    expect(childElements(cases[0]!)).toEqual([]);
  });

  it("puts a failure's message, clauses, rerun command and transcript in <failure>", () => {
    const root = parseXml(junitXml(sampleResults()));
    const testcase = suites(root)
      .flatMap((suite) => childElements(suite, "testcase"))
      .find((element) => element.attributes["name"] === "paging/rv0-any")!;
    const [failure] = childElements(testcase, "failure");
    expect(failure!.attributes).toEqual({ message: "expected at most 2 items, got 5", type: "ConformanceFailure" });
    const body = textContent(failure!);
    expect(body).toMatch(/^expected at most 2 items, got 5\n/);
    expect(body).toContain("doc1/4.7/list/match-unset/limit-unset/rv-0: List, resourceVersionMatch unset, limit unset, resourceVersion 0: Any.");
    expect(body).toContain("#1 GET /api/v1/namespaces/default/configmaps?limit=2&resourceVersion=0 → 200 (3 ms)");
    expect(body).toContain("> accept: application/json");
    expect(body).toContain('< {"kind":"ConfigMapList"');
    expect(body).toContain("rerun: npx tsx scripts/cli.ts conformance --server https://cluster.example:6443 --dialect kubernetes --focus '^paging/rv0-any$'");
  });

  it("uses <error> for errors (no response shown as such) and <skipped message> for skips", () => {
    const all = suites(parseXml(junitXml(sampleResults()))).flatMap((suite) => childElements(suite, "testcase"));
    const errored = all.find((element) => element.attributes["name"] === "errors/gone-watch")!;
    expect(childElements(errored).map((child) => child.name)).toEqual(["error"]);
    expect(textContent(childElements(errored, "error")[0]!)).toContain("→ no response");
    const skipped = all.find((element) => element.attributes["name"] === "watch/bookmark-slow")!;
    expect(childElements(skipped, "skipped")[0]!.attributes).toEqual({ message: "slow: run with --slow" });
  });

  it("records the target as properties of each suite", () => {
    const [suite] = suites(parseXml(junitXml(sampleResults())));
    const properties = Object.fromEntries(
      childElements(childElements(suite!, "properties")[0]!, "property").map((property) => [property.attributes["name"], property.attributes["value"]]),
    );
    expect(properties).toMatchObject({ "target.url": "https://cluster.example:6443", "target.dialect": "kubernetes", "target.serverVersion": "v1.26.15", harnessVersion: "0.1.0" });
  });

  it("stays well-formed with quotes, <, &, emoji, ]]>, forbidden controls and a huge body, round-tripping what XML can carry", () => {
    const xml = junitXml(trickyResults());
    const root = parseXml(xml); // throws on any well-formedness error
    const testcases = suites(root).flatMap((suite) => childElements(suite, "testcase"));
    const failed = testcases.find((element) => element.attributes["name"] === `tricky/"quoted" <id> & 'more' | pipe`)!;
    expect(failed.attributes["classname"]).toBe(`tricky <area> & "co" | x`);
    const failure = childElements(failed, "failure")[0]!;
    expect(failure.attributes["message"]).toContain(TRICKY.markup);
    expect(failure.attributes["message"]).toContain("\nsecond line"); // a newline survives attribute normalization
    expect(failure.attributes["message"]).toContain("bell\\u0007 nul\\u0000 esc\\u001B vt\\u000B ff\\u000C lone\uFFFD nonchar\\uFFFF c1\\u0085 end");
    const body = textContent(failure);
    expect(body).toContain(TRICKY.markup);
    expect(body).toContain("doc1/not-a-clause: (not in the doc 1 catalog)");
    expect(body).toContain("→ 422");
    expect(body).toMatch(/\[… \d+ more bytes not shown\]/);
    expect(xml.length).toBeLessThan(30_000); // the 200 KB body is cut to 4 KiB
    expect(xml).not.toContain("<![CDATA[");
    expect(testcases.find((element) => element.attributes["name"] === "tricky/error ]]> here")).toBeDefined();
  });

  it("writes an empty run as a valid document with zero tests", () => {
    const root = parseXml(junitXml(runResults([])));
    expect(root.attributes).toMatchObject({ tests: "0", failures: "0", errors: "0" });
    expect(suites(root)).toEqual([]);
  });

  it("cuts a huge message attribute but keeps the whole message in the body", () => {
    const message = "m".repeat(5000);
    const root = parseXml(junitXml(runResults([caseResult({ id: "a/b", status: "fail", message })])));
    const failure = childElements(childElements(suites(root)[0]!, "testcase")[0]!, "failure")[0]!;
    expect(failure.attributes["message"]!.length).toBe(1025);
    expect(textContent(failure)).toContain(message);
  });
});
