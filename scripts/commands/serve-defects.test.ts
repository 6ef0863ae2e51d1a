/** `serve --defect`: the list, and refusing unknown names before anything starts (in-process: no server is started). */
import { describe, expect, it } from "vitest";
import { defects } from "../../sim/apiserver/defects/defects.ts";
import { main } from "../cli.ts";

function collect(): { out: string[]; err: string[]; output: { out(line: string): void; err(line: string): void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (line) => out.push(line), err: (line) => err.push(line) } };
}

describe("orb-harness serve --defect", () => {
  it("help lists every defect, one per line, name first, and exits 0", async () => {
    const { out, output } = collect();
    expect(await main(["serve", "--defect", "help"], output)).toBe(0);
    const lines = out.join("\n").split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(12);
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(defects.map((defect) => defect.name));
  });

  it("refuses an unknown name with exit 2 and a did-you-mean", async () => {
    const { err, output } = collect();
    expect(await main(["serve", "--defect", "dry-run-persist"], output)).toBe(2);
    expect(err.join("\n")).toMatch(/unknown defect "dry-run-persist"; did you mean "dry-run-persists"\?/);
  });
});
