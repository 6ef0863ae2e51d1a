import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinFlagLine, quoteFlagWord, readGoFlags, splitFlagLine, type FlagTable } from "./go-flags.ts";

const table: FlagTable = {
  long: new Map([
    ["leader-elect", "optional-value"],
    ["help", "optional-value"],
    ["version", "optional-value"],
    ["v", "value"],
    ["controllers", "value"],
    ["leader-elect-lease-duration", "value"],
  ]),
  short: new Map([
    ["v", "v"],
    ["h", "help"],
  ]),
};

describe("readGoFlags (pflag's command line)", () => {
  it("reads --flag=value, --flag value, bare booleans and repeated flags", () => {
    const read = readGoFlags(["--leader-elect", "--leader-elect-lease-duration", "20s", "--controllers=*", "--controllers=-route", "--leader-elect=false"], table);
    expect(read.occurrences.map((o) => [o.name, o.value])).toEqual([
      ["leader-elect", "true"],
      ["leader-elect-lease-duration", "20s"],
      ["controllers", "*"],
      ["controllers", "-route"],
      ["leader-elect", "false"],
    ]);
    expect(read.problems).toEqual([]);
  });

  it("a bare boolean does not take the next word: that word is an argument", () => {
    const read = readGoFlags(["--leader-elect", "false"], table);
    expect(read.occurrences).toEqual([{ name: "leader-elect", value: "true", written: "--leader-elect" }]);
    expect(read.positionals).toEqual(["false"]);
  });

  it("a value flag takes the next word even if it starts with a dash", () => {
    expect(readGoFlags(["--controllers", "-route"], table).occurrences).toEqual([{ name: "controllers", value: "-route", written: "--controllers -route" }]);
  });

  it("reads shorthands: -v 2, -v=2, -v2, -h and -hv 3", () => {
    for (const args of [["-v", "2"], ["-v=2"], ["-v2"]]) {
      expect(readGoFlags(args, table).occurrences.map((o) => [o.name, o.value]), args.join(" ")).toEqual([["v", "2"]]);
    }
    expect(readGoFlags(["-hv", "3"], table).occurrences.map((o) => [o.name, o.value])).toEqual([
      ["help", "true"],
      ["v", "3"],
    ]);
  });

  it("collects every problem instead of stopping at the first", () => {
    const read = readGoFlags(["--bogus=1", "--leader-elect-lease-duraton", "20s", "-x", "--leader-elect-lease-duration"], table);
    expect(read.problems).toEqual([
      { kind: "unknown", name: "bogus", written: "--bogus=1", value: "1" },
      { kind: "unknown", name: "leader-elect-lease-duraton", written: "--leader-elect-lease-duraton", value: "20s" },
      { kind: "unknown", name: "x", written: "-x" },
      { kind: "needs-value", name: "leader-elect-lease-duration", written: "--leader-elect-lease-duration" },
    ]);
    expect(read.positionals).toEqual([]);
  });

  it("stops reading flags at --", () => {
    const read = readGoFlags(["-v", "1", "--", "--leader-elect"], table);
    expect(read.occurrences).toHaveLength(1);
    expect(read.positionals).toEqual(["--leader-elect"]);
  });

  it("reports bad syntax such as ---x", () => {
    expect(readGoFlags(["---x"], table).problems).toEqual([{ kind: "bad-syntax", written: "---x" }]);
  });
});

describe("splitFlagLine", () => {
  it("splits like a shell", () => {
    expect(splitFlagLine("  --a=1   --b 'x y'  --c=\"q\\\"r\" d\\ e ''")).toEqual(["--a=1", "--b", "x y", '--c=q"r', "d e", ""]);
    expect(splitFlagLine("")).toEqual([]);
    expect(() => splitFlagLine("--a='x")).toThrow("unterminated");
  });
});

describe("joinFlagLine", () => {
  it("quotes only what needs it, keeping a --name= prefix bare", () => {
    expect(quoteFlagWord("--a=1")).toBe("--a=1");
    expect(quoteFlagWord("--name=x y")).toBe("--name='x y'");
    expect(quoteFlagWord("it's")).toBe(`'it'"'"'s'`);
    expect(quoteFlagWord("")).toBe("''");
  });

  it("splitFlagLine reads back exactly the words joined (property)", () => {
    // Printable ASCII and the characters splitFlagLine treats specially (Unicode spaces included).
    const char = fc.oneof(fc.constantFrom(" ", "\t", "\n", "'", '"', "\\", "=", "-", "\u00a0", "\u2028"), fc.string({ minLength: 1, maxLength: 1 }));
    const word = fc.oneof(fc.string({ unit: char }), fc.constantFrom("--name=x y", "--a=' b", "-v"));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), (words) => {
        expect(splitFlagLine(joinFlagLine(words))).toEqual(words);
      }),
      { numRuns: 500 },
    );
  });
});
