import { describe, expect, it } from "vitest";
import { progressLine, simulateProgress } from "./simulate-progress.ts";

function fake(isTTY: boolean, columns?: number) {
  let nowMs = 1_000;
  const written: string[] = [];
  const progress = simulateProgress({ stream: { isTTY, write: (text) => written.push(text), columns: () => columns }, now: () => nowMs });
  return { progress, written, advance: (ms: number) => void (nowMs += ms) };
}

const at = (virtualS: number, kernelEvents: number) => ({ virtualMs: virtualS * 1000, durationMs: 3_600_000, kernelEvents });

describe("simulate's progress line", () => {
  it("says the virtual time reached and events per wall second", () => {
    expect(progressLine(at(1200, 300_000), 10_000)).toBe("progress: 20m0s of 1h0m0s virtual (33%), 300000 events, 30000 events/s, 10.0 s wall");
    expect(progressLine({ virtualMs: 45_000, durationMs: 90_000, kernelEvents: 10 }, 0)).toBe("progress: 45s of 1m30s virtual (50%), 10 events, 0 events/s, 0.0 s wall");
  });

  it("is silent on short runs", () => {
    const { progress, written, advance } = fake(false);
    for (let s = 10; s <= 100; s += 10) {
      advance(150);
      progress.update(at(s, s * 100));
    }
    progress.finish();
    expect(written).toEqual([]);
  });

  it("not on a terminal: a whole line every 5 s of wall time", () => {
    const { progress, written, advance } = fake(false);
    for (let s = 10; s <= 1200; s += 10) {
      advance(100); // 12 s of wall time in all
      progress.update(at(s, s * 100));
    }
    progress.finish();
    expect(written).toEqual([
      "progress: 3m20s of 1h0m0s virtual (5%), 20000 events, 10000 events/s, 2.0 s wall\n",
      "progress: 11m40s of 1h0m0s virtual (19%), 70000 events, 10000 events/s, 7.0 s wall\n",
      "progress: 20m0s of 1h0m0s virtual (33%), 120000 events, 10000 events/s, 12.0 s wall\n",
    ]);
  });

  it("on a terminal: one line rewritten in place, cleared at the end", () => {
    const { progress, written, advance } = fake(true);
    for (let s = 10; s <= 300; s += 10) {
      advance(100);
      progress.update(at(s, s * 100));
    }
    progress.finish();
    expect(written.length).toBeGreaterThan(3);
    expect(written.slice(0, -1).every((text) => text.startsWith("\r\x1b[2Kprogress: ") && !text.includes("\n"))).toBe(true);
    expect(written[0]).toBe("\r\x1b[2Kprogress: 3m20s of 1h0m0s virtual (5%), 20000 events, 10000 events/s, 2.0 s wall");
    expect(written.at(-1)).toBe("\r\x1b[2K");
  });

  it("on a narrow terminal: the line cut to its width, so it can be rewritten in place", () => {
    const { progress, written, advance } = fake(true, 40);
    advance(3_000);
    progress.update(at(1200, 300_000));
    expect(written).toEqual([`\r\x1b[2K${"progress: 20m0s of 1h0m0s virtual (33%), 300000 events".slice(0, 38)}…`]);
  });
});
