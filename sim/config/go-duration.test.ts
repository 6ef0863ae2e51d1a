import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatGoDuration, GoDurationError, goDurationToMs, MAX_GO_DURATION_NS, MIN_GO_DURATION_NS, parseGoDuration } from "./go-duration.ts";

const S = 1_000_000_000n;

describe("parseGoDuration", () => {
  it("parses every form Go's time.ParseDuration accepts", () => {
    const cases: [string, bigint][] = [
      ["0", 0n],
      ["-0", 0n],
      ["+0", 0n],
      ["0s", 0n],
      ["15s", 15n * S],
      ["1m0s", 60n * S],
      ["8760h0m0s", 8760n * 3600n * S],
      ["1h2m3.5s", 3723n * S + S / 2n],
      ["1.5h", 5400n * S],
      [".5s", S / 2n],
      ["1.s", S],
      ["-1.5m", -90n * S],
      ["+2h", 7200n * S],
      ["100ns", 100n],
      ["3us", 3000n],
      ["3\u00b5s", 3000n],
      ["3\u03bcs", 3000n],
      ["250ms", 250_000_000n],
      ["1h1h", 7200n * S],
      ["0.000000001s", 1n],
      ["0.0000000019s", 1n], // digits beyond a nanosecond are truncated
      ["2562047h47m16.854775807s", MAX_GO_DURATION_NS],
      ["-2562047h47m16.854775808s", MIN_GO_DURATION_NS],
      ["9223372036854775807ns", MAX_GO_DURATION_NS],
    ];
    for (const [text, nanos] of cases) expect(parseGoDuration(text), text).toBe(nanos);
  });

  it("rejects what Go rejects, with Go's messages", () => {
    expect(() => parseGoDuration("")).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration("1")).toThrow('time: missing unit in duration "1"');
    expect(() => parseGoDuration("1d")).toThrow('time: unknown unit "d" in duration "1d"');
    expect(() => parseGoDuration("1hm")).toThrow('time: unknown unit "hm" in duration "1hm"');
    for (const text of [".s", "-", "s", "1s ", " 1s", "1..5s", "9223372036854775808ns", "2562047h47m16.854775808s", "--1s", "1e3s"]) {
      expect(() => parseGoDuration(text), text).toThrow(GoDurationError);
    }
  });
});

describe("formatGoDuration", () => {
  it("prints as Go's Duration.String() prints", () => {
    const cases: [bigint, string][] = [
      [0n, "0s"],
      [1n, "1ns"],
      [1_500n, "1.5\u00b5s"],
      [500_000_000n, "500ms"],
      [1_500_000_000n, "1.5s"],
      [90n * S, "1m30s"],
      [3600n * S, "1h0m0s"],
      [8760n * 3600n * S, "8760h0m0s"],
      [-90n * S, "-1m30s"],
      [15n * S, "15s"],
      [MAX_GO_DURATION_NS, "2562047h47m16.854775807s"],
      [MIN_GO_DURATION_NS, "-2562047h47m16.854775808s"],
    ];
    for (const [nanos, text] of cases) expect(formatGoDuration(nanos)).toBe(text);
  });

  it("refuses values outside int64", () => {
    expect(() => formatGoDuration(MAX_GO_DURATION_NS + 1n)).toThrow(RangeError);
  });
});

describe("goDurationToMs", () => {
  it("is exact for whole milliseconds, including 8760h", () => {
    expect(goDurationToMs(parseGoDuration("8760h"))).toBe(31_536_000_000);
    expect(goDurationToMs(parseGoDuration("1.5ms"))).toBe(1.5);
  });
});

// Duration text as people write it: signed sums of terms with optional fractions and any unit.
const term = fc.record({
  whole: fc.nat({ max: 99_999 }).map(String),
  fraction: fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
  unit: fc.constantFrom("ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "m", "h"),
});
const durationText = fc
  .tuple(fc.constantFrom("", "-", "+"), fc.array(term, { minLength: 1, maxLength: 4 }))
  .map(([sign, terms]) => sign + terms.map((t) => `${t.whole}${t.fraction === undefined ? "" : `.${t.fraction}`}${t.unit}`).join(""));

describe("durations round-trip (properties)", () => {
  it("format then parse is the identity on every int64", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_GO_DURATION_NS, max: MAX_GO_DURATION_NS }), (nanos) => parseGoDuration(formatGoDuration(nanos)) === nanos),
      { numRuns: 2000 },
    );
  });

  it("Go's printing of a parsed value is stable: printing and parsing again changes nothing", () => {
    fc.assert(
      fc.property(durationText, (text) => {
        const printed = formatGoDuration(parseGoDuration(text));
        return formatGoDuration(parseGoDuration(printed)) === printed && parseGoDuration(printed) === parseGoDuration(text);
      }),
      { numRuns: 1000 },
    );
  });

  it("a sum of whole terms parses to the sum of its parts", () => {
    const unitNs: Record<string, bigint> = { ns: 1n, us: 1000n, "\u00b5s": 1000n, "\u03bcs": 1000n, ms: 1_000_000n, s: S, m: 60n * S, h: 3600n * S };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 10_000 }), fc.constantFrom(...Object.keys(unitNs))), { minLength: 1, maxLength: 5 }), (terms) => {
        const text = terms.map(([value, unit]) => `${value}${unit}`).join("");
        return parseGoDuration(text) === terms.reduce((sum, [value, unit]) => sum + BigInt(value) * unitNs[unit]!, 0n);
      }),
    );
  });
});
