import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Trace } from "./trace.ts";

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

function traceOf(lines: [number, string, string, unknown][]): Trace {
  const trace = new Trace({ keepLines: true });
  for (const [timeMs, actor, event, details] of lines) trace.record(timeMs, actor, event, details);
  return trace;
}

describe("Trace", () => {
  it("writes `time actor event canonical-json` lines", () => {
    const trace = traceOf([
      [1000, "node-a", "lease-renewed", { z: 1, a: [2, { y: true, b: undefined }] }],
      [1500.5, "kernel", "tick", undefined],
    ]);
    expect(trace.lines()).toEqual(['1000 node-a lease-renewed {"a":[2,{"y":true}],"z":1}', "1500.5 kernel tick {}"]);
    expect(trace.count).toBe(2);
  });

  it("hashes the lines joined by newlines, with no trailing newline", () => {
    const trace = traceOf([
      [1, "a", "x", { n: 1 }],
      [2, "b", "y", {}],
    ]);
    expect(trace.hash()).toBe(sha256('1 a x {"n":1}\n2 b y {}'));
    expect(new Trace().hash()).toBe(sha256(""));
  });

  it("hashes long runs the same as their joined lines, across the chunks it hashes in (non-ASCII included)", () => {
    const trace = new Trace({ keepLines: true });
    for (let index = 0; index < 20_000; index++) trace.record(index, "node-é", "beat", { n: index, zone: "zone-ü" });
    expect(trace.lines().join("\n").length).toBeGreaterThan(3 * 65_536);
    expect(trace.hash()).toBe(sha256(trace.lines().join("\n")));
  });

  it("can be hashed repeatedly, between records", () => {
    const trace = new Trace();
    trace.record(1, "a", "x");
    const first = trace.hash();
    expect(trace.hash()).toBe(first);
    trace.record(2, "a", "y");
    expect(trace.hash()).not.toBe(first);
    expect(trace.hash()).toBe(sha256("1 a x {}\n2 a y {}"));
  });

  it("changes hash when one line changes, or two lines swap", () => {
    const base: [number, string, string, unknown][] = [
      [1, "a", "x", { v: 1 }],
      [2, "b", "y", { v: 2 }],
      [3, "c", "z", { v: 3 }],
    ];
    const reference = traceOf(base).hash();
    expect(traceOf(base).hash()).toBe(reference);
    expect(traceOf([base[0]!, [2, "b", "y", { v: 20 }], base[2]!]).hash()).not.toBe(reference);
    expect(traceOf([base[0]!, [2.001, "b", "y", { v: 2 }], base[2]!]).hash()).not.toBe(reference);
    expect(traceOf([base[1]!, base[0]!, base[2]!]).hash()).not.toBe(reference);
  });

  it("keeps lines only when asked, and hands out a copy", () => {
    const hashOnly = new Trace();
    hashOnly.record(1, "a", "x");
    expect(hashOnly.count).toBe(1);
    expect(() => hashOnly.lines()).toThrow(/keepLines/);
    const kept = traceOf([[1, "a", "x", {}]]);
    (kept.lines() as string[]).push("forged");
    expect(kept.lines()).toEqual(["1 a x {}"]);
  });

  it("rejects fields that would make a line ambiguous", () => {
    const trace = new Trace();
    expect(() => trace.record(1, "two words", "x")).toThrow(RangeError);
    expect(() => trace.record(1, "a", "line\nbreak")).toThrow(RangeError);
    expect(() => trace.record(1, "", "x")).toThrow(RangeError);
    expect(() => trace.record(Number.NaN, "a", "x")).toThrow(RangeError);
    expect(() => trace.record(1, "a", "x", { bad: Number.NaN })).toThrow(TypeError);
    expect(trace.count).toBe(0);
  });
});
