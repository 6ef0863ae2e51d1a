/** parseFlags: GNU-style flags checked against a spec, the values typed by it. */
import { describe, expect, expectTypeOf, it } from "vitest";
import { UsageError } from "./cli-command.ts";
import { flagNames, flagsOfKind, isOneOf, parseFlags, type FlagValues } from "./parse-flags.ts";

const SPEC = { server: "string", watchers: "integer", "insecure-skip-tls-verify": "boolean", defect: "repeated" } as const;

function usageError(args: readonly string[]): string {
  try {
    parseFlags(args, SPEC);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`no error for ${JSON.stringify(args)}`);
}

describe("parseFlags", () => {
  it("reads --name value, --name=value, bare booleans, repeated flags and positionals", () => {
    const { values, positionals } = parseFlags(["a", "--server", "http://x", "--watchers=-3", "--insecure-skip-tls-verify", "--defect", "one", "--defect=two", "b"], SPEC);
    expect(values.get("server")).toBe("http://x");
    expect(values.get("watchers")).toBe(-3);
    expect(values.get("insecure-skip-tls-verify")).toBe(true);
    expect(values.get("defect")).toEqual(["one", "two"]);
    expect(positionals).toEqual(["a", "b"]);
  });

  it("types each value by its kind, and refuses names the spec does not declare", () => {
    const { values } = parseFlags([], SPEC);
    expectTypeOf(values.get("server")).toEqualTypeOf<string | undefined>();
    expectTypeOf(values.get("watchers")).toEqualTypeOf<number | undefined>();
    expectTypeOf(values.get("insecure-skip-tls-verify")).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(values.get("defect")).toEqualTypeOf<readonly string[] | undefined>();
    // @ts-expect-error: not declared
    values.get("token");
    // @ts-expect-error: not declared
    values.has("token");
    // A command's values stand for a smaller spec they include (as targetChoice reads them)...
    expectTypeOf(values).toMatchTypeOf<FlagValues<{ server: "string" }>>();
    // ...but not for one that gives a flag another kind.
    expectTypeOf(values).not.toMatchTypeOf<FlagValues<{ server: "integer" }>>();
  });

  it("reads a flag not given as undefined, and knows which were given (--flag=false too)", () => {
    const { values } = parseFlags(["--insecure-skip-tls-verify=false"], SPEC);
    expect(values.get("server")).toBeUndefined();
    expect(values.has("server")).toBe(false);
    expect(values.get("insecure-skip-tls-verify")).toBe(false);
    expect(values.has("insecure-skip-tls-verify")).toBe(true);
  });

  it("keeps the last of a flag given twice, and takes any next word as a value", () => {
    const { values, positionals } = parseFlags(["--server", "a", "--server", "--", "--watchers", "-5", "x"], SPEC);
    expect(values.get("server")).toBe("--");
    expect(values.get("watchers")).toBe(-5);
    expect(positionals).toEqual(["x"]);
  });

  it("takes everything after -- as positionals, and a lone - as one", () => {
    const { values, positionals } = parseFlags(["-", "--", "--server", "-x"], SPEC);
    expect(values.has("server")).toBe(false);
    expect(positionals).toEqual(["-", "--server", "-x"]);
  });

  it("refuses unknown flags (suggesting a close one), short flags, missing values, bad integers and booleans", () => {
    expect(usageError(["--serve", "x"])).toBe("unknown flag --serve (did you mean --server?)");
    expect(usageError(["--bogus"])).toBe("unknown flag --bogus");
    expect(usageError(["-x"])).toBe("unknown flag -x");
    expect(usageError(["-abc"])).toBe("unknown flag -abc");
    expect(usageError(["-o=json"])).toBe("unknown flag -o=json");
    expect(usageError(["--server"])).toBe("flag --server needs a value");
    expect(usageError(["--watchers", "1.5"])).toBe('flag --watchers takes an integer, got "1.5"');
    expect(usageError(["--watchers=99999999999999999999"])).toBe('flag --watchers takes an integer, got "99999999999999999999"');
    expect(usageError(["--insecure-skip-tls-verify=yes"])).toBe('flag --insecure-skip-tls-verify takes true or false, got "yes"');
    // The first problem in the order given.
    expect(usageError(["--watchers", "x", "--bogus"])).toBe('flag --watchers takes an integer, got "x"');
  });

  it("refuses the names every object has (they are not declared flags)", () => {
    expect(usageError(["--constructor", "x"])).toBe("unknown flag --constructor");
    expect(usageError(["--__proto__=x"])).toBe("unknown flag --__proto__");
  });
});

describe("flag spec helpers", () => {
  it("flagNames lists a spec's names in order; flagsOfKind builds a spec of one kind", () => {
    expect(flagNames(SPEC)).toEqual(["server", "watchers", "insecure-skip-tls-verify", "defect"]);
    const spec = { ...flagsOfKind(["a", "b"], "integer") };
    expect(spec).toEqual({ a: "integer", b: "integer" });
    expectTypeOf(parseFlags([], spec).values.get("b")).toEqualTypeOf<number | undefined>();
  });

  it("isOneOf narrows a value to a list of choices", () => {
    const value: string = "json";
    expect(isOneOf(["protobuf", "json"], value)).toBe(true);
    expect(isOneOf(["protobuf", "json"], "xml")).toBe(false);
    if (isOneOf(["protobuf", "json"], value)) expectTypeOf(value).toEqualTypeOf<"protobuf" | "json">();
  });
});
