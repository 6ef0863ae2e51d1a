/** bench's table and page with a real server measured beside the embedded one (the quick end-to-end test in scripts/commands/ has none). */
import { describe, expect, it } from "vitest";
import { figureSpec } from "./bench-catalog.ts";
import { benchHtml, benchTable } from "./bench-report.ts";
import type { BenchFigure, BenchResults } from "./bench-run.ts";

function figure(key: string, runs: number[]): BenchFigure {
  const { unit, better, what } = figureSpec(key);
  const sorted = [...runs].sort((a, b) => a - b);
  return { median: sorted[1]!, min: sorted[0]!, max: sorted[2]!, runs, unit, better, what };
}

const results: BenchResults = {
  tool: "orb-harness bench",
  quick: false,
  mode: "full: test",
  started: "2026-11-28T00:00:00.000Z",
  wallSeconds: 10,
  machine: { cpus: 2, model: "test <cpu>", node: "v20", loadAverageAtStart: 0.1 },
  real: { gitVersion: "v1.26.4", transport: "TLS on both" },
  figures: {
    "kernel.eventsPerSecond": figure("kernel.eventsPerSecond", [3, 1, 2]),
    "server.list10kUnpagedMs": figure("server.list10kUnpagedMs", [100, 90, 110]),
    "real.server.list10kUnpagedMs": figure("real.server.list10kUnpagedMs", [400, 500, 450]),
  },
  ratios: { "ratio.server.list10kUnpagedMs": 4.5 },
};

describe("bench's report beside a real server", () => {
  it("prints the real median and the speed-up in the table, only for the figures measured on both", () => {
    const [header, kernel, list] = benchTable(results);
    expect(header).toMatch(/^figure +median +min – max +unit +real +speed-up vs real$/);
    expect(kernel).toMatch(/^kernel\.eventsPerSecond +2\.00 +1\.00 – 3\.00 +events\/s$/);
    expect(list).toMatch(/^server\.list10kUnpagedMs +100 +90\.0 – 110 +ms +450 +4\.50×$/);
  });

  it("draws the real server's bar under the embedded server's, and names both only where there are two", () => {
    const html = benchHtml(results);
    const server = /<svg role="img" aria-label="server\.list10kUnpagedMs"[^]*?<\/svg>/.exec(html)![0];
    expect(server.match(/<rect /g)).toHaveLength(2);
    expect(server).toContain(">embedded</text>");
    expect(server).toContain(">real</text>");
    expect(server).toContain("450 ms</text>");
    const kernel = /<svg role="img" aria-label="kernel\.eventsPerSecond"[^]*?<\/svg>/.exec(html)![0];
    expect(kernel.match(/<rect /g)).toHaveLength(1);
    expect(kernel).not.toContain("embedded");
    expect(html).toContain("the embedded server is <strong>4.50×</strong> as fast as the real one");
    expect(html).toContain("kube-apiserver v1.26.4 (TLS on both)");
    expect(html).toContain("test &#60;cpu&#62;");
  });
});
