import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  everythingLabelSelector,
  formatLabelSelector,
  isEverythingLabelSelector,
  labelKeyErrors,
  labelValueErrors,
  matchesLabels,
  parseLabelSelector,
  SelectorParseError,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
} from "./label-selector.ts";

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function req(key: string, operator: LabelOperator, ...values: string[]): LabelRequirement {
  return { key, operator, values };
}

function parseError(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (error) {
    expect(error).toBeInstanceOf(SelectorParseError);
    expect((error as SelectorParseError).code).toBe(400);
    expect((error as SelectorParseError).reason).toBe("BadRequest");
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

describe("parseLabelSelector: accepted forms", () => {
  it("parses the transcripts' selectors (list-label-selector, deletecollection)", () => {
    expect(parseLabelSelector("tier=odd").requirements).toEqual([req("tier", "=", "odd")]);
    expect(parseLabelSelector("tier=even").requirements).toEqual([req("tier", "=", "even")]);
  });

  it("treats an empty or blank selector as everything", () => {
    for (const text of ["", " ", "\t\r\n "]) {
      const selector = parseLabelSelector(text);
      expect(selector).toBe(everythingLabelSelector);
      expect(isEverythingLabelSelector(selector)).toBe(true);
    }
    expect(isEverythingLabelSelector(parseLabelSelector("a"))).toBe(false);
  });

  it("parses every operator", () => {
    expect(parseLabelSelector("a=b").requirements).toEqual([req("a", "=", "b")]);
    expect(parseLabelSelector("a==b").requirements).toEqual([req("a", "==", "b")]);
    expect(parseLabelSelector("a!=b").requirements).toEqual([req("a", "!=", "b")]);
    expect(parseLabelSelector("a in (x,y)").requirements).toEqual([req("a", "in", "x", "y")]);
    expect(parseLabelSelector("a notin (x)").requirements).toEqual([req("a", "notin", "x")]);
    expect(parseLabelSelector("a").requirements).toEqual([req("a", "exists")]);
    expect(parseLabelSelector("!a").requirements).toEqual([req("a", "!")]);
    expect(parseLabelSelector("a>5").requirements).toEqual([req("a", "gt", "5")]);
    expect(parseLabelSelector("a<5").requirements).toEqual([req("a", "lt", "5")]);
  });

  it("tolerates blanks (space, tab, CR, LF) around every token", () => {
    expect(parseLabelSelector(" a = b , c\t!=\td ,\n e in ( x , y ) , ! f ").requirements).toEqual([
      req("a", "=", "b"),
      req("c", "!=", "d"),
      req("e", "in", "x", "y"),
      req("f", "!"),
    ]);
    expect(parseLabelSelector("a in(x)").requirements).toEqual([req("a", "in", "x")]);
  });

  it("accepts empty values: a=, a==, a!=, a in (), (,x), (x,,y), (x,)", () => {
    expect(parseLabelSelector("a=").requirements).toEqual([req("a", "=", "")]);
    expect(parseLabelSelector("a==,b").requirements).toEqual([req("a", "==", ""), req("b", "exists")]);
    expect(parseLabelSelector("a!=").requirements).toEqual([req("a", "!=", "")]);
    expect(parseLabelSelector("a in ()").requirements).toEqual([req("a", "in", "")]);
    expect(parseLabelSelector("a in (,x)").requirements).toEqual([req("a", "in", "", "x")]);
    expect(parseLabelSelector("a in (x,,y)").requirements).toEqual([req("a", "in", "", "x", "y")]);
    expect(parseLabelSelector("a notin (x,)").requirements).toEqual([req("a", "notin", "", "x")]);
  });

  it("sorts requirements by key (stably) and values, dropping duplicate values", () => {
    expect(parseLabelSelector("z=1,a in (c,b,c,a),m").requirements).toEqual([req("a", "in", "a", "b", "c"), req("m", "exists"), req("z", "=", "1")]);
    expect(parseLabelSelector("a!=2,a=1").requirements).toEqual([req("a", "!=", "2"), req("a", "=", "1")]);
  });

  it("reads 'in' and 'notin' as names where a key or value is expected", () => {
    expect(parseLabelSelector("in=notin").requirements).toEqual([req("in", "=", "notin")]);
    expect(parseLabelSelector("in in (in,notin)").requirements).toEqual([req("in", "in", "in", "notin")]);
    expect(parseLabelSelector("notin,!in").requirements).toEqual([req("in", "!"), req("notin", "exists")]);
  });

  it("accepts prefixed keys and the full label syntax", () => {
    expect(parseLabelSelector("app.kubernetes.io/name=My_App-1.0").requirements).toEqual([req("app.kubernetes.io/name", "=", "My_App-1.0")]);
    expect(parseLabelSelector(`${"k".repeat(63)}=${"v".repeat(63)}`).requirements).toHaveLength(1);
    expect(parseLabelSelector(`${"p".repeat(253)}/k`).requirements).toHaveLength(1);
  });

  it("stops at a NUL where a token would start, as Kubernetes' lexer does", () => {
    expect(parseLabelSelector("a \0 b").requirements).toEqual([req("a", "exists")]);
    expect(parseError("a\0b")).toBe("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  });
});

describe("parseLabelSelector: Kubernetes' error messages", () => {
  const cases: [string, string][] = [
    [",a", "found ',', expected: !, identifier, or 'end of string'"],
    ["=a", "found '=', expected: !, identifier, or 'end of string'"],
    ["!=a", "found '!=', expected: !, identifier, or 'end of string'"],
    ["a,", "found '', expected: identifier after ','"],
    ["a,,b", "found ',', expected: identifier after ','"],
    ["a=b c", "found 'c', expected: ',' or 'end of string'"],
    ["a=b=c", "found '=', expected: ',' or 'end of string'"],
    ["!a=b", "found '=', expected: ',' or 'end of string'"],
    ["a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ["a (x)", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ["!", "unable to parse requirement: found '', expected: identifier"],
    ["! =a", "unable to parse requirement: found '=', expected: identifier"],
    ["a in", "unable to parse requirement: found '' expected: '('"],
    ["a in x", "unable to parse requirement: found 'x' expected: '('"],
    ["a in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ["a in (x", "unable to parse requirement: found '', expected: ',' or ')'"],
    ["a in (x y)", "unable to parse requirement: found 'y', expected: ',' or ')'"],
    ["a in (x,=)", "unable to parse requirement: found '=', expected: ',', or identifier"],
    ["a in (x,,)", "unable to parse requirement: found ')', expected: ',', or identifier"],
    ["a in (,,)", "unable to parse requirement: found ')', expected: ',', or identifier"],
    ["a=(", "unable to parse requirement: found '(', expected: identifier"],
    ["a=!b", "unable to parse requirement: found '!', expected: identifier"],
    ["a!==b", "unable to parse requirement: found '=', expected: identifier"],
  ];
  for (const [text, message] of cases) {
    it(`${JSON.stringify(text)} → ${message}`, () => {
      expect(parseError(text)).toBe(message);
    });
  }

  it("reports a bad key as Kubernetes' parser does, with the <nil> field path", () => {
    expect(parseError("-a=b")).toBe(`unable to parse requirement: <nil>: Invalid value: "-a": name part ${NAME_RULE}`);
    expect(parseError("a_")).toBe(`unable to parse requirement: <nil>: Invalid value: "a_": name part ${NAME_RULE}`);
    expect(parseError("!Bad/a")).toBe(`unable to parse requirement: <nil>: Invalid value: "Bad/a": prefix part ${SUBDOMAIN_RULE}`);
    expect(parseError("a/=b")).toBe(`unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${NAME_RULE}`);
    expect(parseError(`${"k".repeat(64)}=v`)).toBe(`unable to parse requirement: <nil>: Invalid value: "${"k".repeat(64)}": name part must be no more than 63 characters`);
  });

  it("reports a bad value with its values[i][key] path", () => {
    expect(parseError("a=b_")).toBe(`unable to parse requirement: values[0][a]: Invalid value: "b_": ${VALUE_RULE}`);
    expect(parseError("a in (ok,-x)")).toBe(`unable to parse requirement: values[0][a]: Invalid value: "-x": ${VALUE_RULE}`);
    expect(parseError(`a=${"v".repeat(64)}`)).toBe(`unable to parse requirement: values[0][a]: Invalid value: "${"v".repeat(64)}": must be no more than 63 characters`);
  });

  it("requires an int64 for gt and lt, aggregating several problems as [a, b]", () => {
    expect(parseError("a>b")).toBe(`unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`);
    expect(parseError("a<9223372036854775808")).toBe(
      `unable to parse requirement: values[0]: Invalid value: "9223372036854775808": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expect(parseError("a>b_")).toBe(
      `unable to parse requirement: [values[0]: Invalid value: "b_": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "b_": ${VALUE_RULE}]`,
    );
    expect(parseLabelSelector("a<9223372036854775807").requirements).toEqual([req("a", "lt", "9223372036854775807")]);
  });
});

describe("label key and value syntax", () => {
  it("validates keys", () => {
    for (const key of ["a", "A", "0", "a.b-c_d", "example.com/a", "a.b/C_d", `${"x".repeat(63)}`]) expect(labelKeyErrors(key), key).toEqual([]);
    expect(labelKeyErrors("/a")).toEqual(["prefix part must be non-empty"]);
    expect(labelKeyErrors("a/b/c")).toEqual([
      `a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]);
    expect(labelKeyErrors("")).toEqual(["name part must be non-empty", `name part ${NAME_RULE}`]);
    expect(labelKeyErrors(`${"p".repeat(254)}/a`)).toEqual(["prefix part must be no more than 253 characters"]);
  });

  it("validates values", () => {
    for (const value of ["", "a", "A-b_c.d", "12345", "x".repeat(63)]) expect(labelValueErrors(value), value).toEqual([]);
    expect(labelValueErrors("-a")).toEqual([VALUE_RULE]);
    expect(labelValueErrors("x".repeat(64))).toEqual(["must be no more than 63 characters"]);
    // Go's len(): bytes, so 32 two-byte characters are too long although 32 characters are not.
    expect(labelValueErrors("é".repeat(32))).toContain("must be no more than 63 characters");
    expect(labelKeyErrors("é".repeat(32))).toContain("name part must be no more than 63 characters");
  });
});

describe("matchesLabels", () => {
  const absent = {};
  const same = { k: "v" };
  const other = { k: "w" };
  // [selector, matches absent, matches k=v, matches k=w]
  const table: [string, boolean, boolean, boolean][] = [
    ["k=v", false, true, false],
    ["k==v", false, true, false],
    ["k!=v", true, false, true],
    ["k in (v,x)", false, true, false],
    ["k notin (v,x)", true, false, true],
    ["k", false, true, true],
    ["!k", true, false, false],
    ["k=", false, false, false],
    ["k!=", true, true, true],
  ];
  for (const [text, onAbsent, onSame, onOther] of table) {
    it(`${text}: absent ${onAbsent}, k=v ${onSame}, k=w ${onOther}`, () => {
      const selector = parseLabelSelector(text);
      expect(matchesLabels(selector, absent)).toBe(onAbsent);
      expect(matchesLabels(selector, undefined)).toBe(onAbsent);
      expect(matchesLabels(selector, same)).toBe(onSame);
      expect(matchesLabels(selector, other)).toBe(onOther);
    });
  }

  it("matches an empty label value only with an empty selector value", () => {
    expect(matchesLabels(parseLabelSelector("k="), { k: "" })).toBe(true);
    expect(matchesLabels(parseLabelSelector("k in ()"), { k: "" })).toBe(true);
    expect(matchesLabels(parseLabelSelector("k"), { k: "" })).toBe(true);
    expect(matchesLabels(parseLabelSelector("!k"), { k: "" })).toBe(false);
  });

  it("compares gt and lt as int64, never matching absent or non-integer values", () => {
    const gt = parseLabelSelector("n>10");
    const lt = parseLabelSelector("n<10");
    expect([matchesLabels(gt, { n: "11" }), matchesLabels(gt, { n: "10" }), matchesLabels(gt, { n: "9" })]).toEqual([true, false, false]);
    expect([matchesLabels(lt, { n: "9" }), matchesLabels(lt, { n: "10" }), matchesLabels(lt, { n: "-3" })]).toEqual([true, false, true]);
    expect(matchesLabels(gt, {})).toBe(false);
    expect(matchesLabels(lt, {})).toBe(false);
    expect(matchesLabels(gt, { n: "x" })).toBe(false);
    expect(matchesLabels(lt, { n: "1.5" })).toBe(false);
    expect(matchesLabels(gt, { n: "+11" })).toBe(true);
    expect(matchesLabels(gt, { n: "99999999999999999999" })).toBe(false); // beyond int64: not an integer to Kubernetes
    expect(matchesLabels(parseLabelSelector("n>9007199254740992"), { n: "9007199254740993" })).toBe(true); // exact beyond 2^53
  });

  it("requires every requirement (conjunction)", () => {
    const selector = parseLabelSelector("a=1,b in (2,3),!c");
    expect(matchesLabels(selector, { a: "1", b: "3" })).toBe(true);
    expect(matchesLabels(selector, { a: "1", b: "3", c: "" })).toBe(false);
    expect(matchesLabels(selector, { a: "1", b: "4" })).toBe(false);
    expect(matchesLabels(selector, { b: "2" })).toBe(false);
  });

  it("does not see inherited properties as labels", () => {
    expect(matchesLabels(parseLabelSelector("toString"), {})).toBe(false);
    expect(matchesLabels(parseLabelSelector("!constructor"), {})).toBe(true);
  });

  it("matches everything with the empty selector", () => {
    expect(matchesLabels(everythingLabelSelector, undefined)).toBe(true);
    expect(matchesLabels(parseLabelSelector(""), { any: "thing" })).toBe(true);
  });
});

describe("formatLabelSelector", () => {
  it("prints Kubernetes' canonical form", () => {
    expect(formatLabelSelector(parseLabelSelector("x in (foo,,baz),y,z notin ()"))).toBe("x in (,baz,foo),y,z notin ()");
    expect(formatLabelSelector(parseLabelSelector(" !b , a>1,c<2, d == e,f!=g"))).toBe("a>1,!b,c<2,d==e,f!=g");
    expect(formatLabelSelector(everythingLabelSelector)).toBe("");
  });
});

// Arbitrary valid selectors, in the normal form the parser produces.
const alnum = fc.constantFrom("a", "b", "Z", "0", "9");
const inner = fc.constantFrom("a", "Z", "0", "-", "_", ".");
const labelName = fc
  .tuple(alnum, fc.array(inner, { maxLength: 4 }), fc.option(alnum, { nil: undefined }))
  .map(([first, middle, last]) => (last === undefined ? first : `${first}${middle.join("")}${last}`));
const dnsLabel = fc
  .tuple(fc.constantFrom("a", "z", "0"), fc.array(fc.constantFrom("a", "0", "-"), { maxLength: 3 }), fc.constantFrom("b", "9"))
  .map(([first, middle, last]) => `${first}${middle.join("")}${last}`);
const labelKey = fc.oneof(
  labelName,
  fc.constantFrom("in", "notin"),
  fc.tuple(fc.array(dnsLabel, { minLength: 1, maxLength: 3 }), labelName).map(([parts, name]) => `${parts.join(".")}/${name}`),
);
const labelValue = fc.oneof(fc.constant(""), labelName, fc.constantFrom("in", "notin"));
const requirement: fc.Arbitrary<LabelRequirement> = fc.oneof(
  fc.tuple(labelKey, fc.constantFrom<LabelOperator>("=", "==", "!="), labelValue).map(([key, operator, value]) => req(key, operator, value)),
  fc
    .tuple(labelKey, fc.constantFrom<LabelOperator>("in", "notin"), fc.array(labelValue, { minLength: 1, maxLength: 4 }))
    .map(([key, operator, values]) => req(key, operator, ...[...new Set(values)].sort())),
  fc.tuple(labelKey, fc.constantFrom<LabelOperator>("exists", "!")).map(([key, operator]) => req(key, operator)),
  fc.tuple(labelKey, fc.constantFrom<LabelOperator>("gt", "lt"), fc.nat()).map(([key, operator, n]) => req(key, operator, String(n))),
);
const selector: fc.Arbitrary<LabelSelector> = fc
  .array(requirement, { maxLength: 5 })
  .map((requirements) => ({ requirements: [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) }));

describe("properties", () => {
  it("parse(format(selector)) gives the selector back", () => {
    fc.assert(
      fc.property(selector, (original) => {
        expect(parseLabelSelector(formatLabelSelector(original))).toEqual(original);
      }),
    );
  });

  it("format is a fixed point after one parse, whatever the blanks", () => {
    fc.assert(
      fc.property(selector, (original) => {
        const spaced = formatLabelSelector(original).replace(/(==|!=|[,()=<>!])/g, " $1 ");
        const once = formatLabelSelector(parseLabelSelector(spaced));
        expect(formatLabelSelector(parseLabelSelector(once))).toBe(once);
        expect(once).toBe(formatLabelSelector(original));
      }),
    );
  });

  it("the selector built from a label set matches it, and stops matching when one value changes", () => {
    fc.assert(
      fc.property(fc.dictionary(labelName, labelName, { minKeys: 1, maxKeys: 5 }), (labels) => {
        const text = Object.entries(labels)
          .map(([key, value]) => `${key}=${value}`)
          .join(",");
        const parsed = parseLabelSelector(text);
        expect(matchesLabels(parsed, labels)).toBe(true);
        const [firstKey] = Object.keys(labels);
        expect(matchesLabels(parsed, { ...labels, [firstKey!]: `${labels[firstKey!]!}x` })).toBe(false);
      }),
    );
  });

  it("in and notin are complements, as are k and !k", () => {
    fc.assert(
      fc.property(labelName, fc.array(labelValue, { minLength: 1, maxLength: 3 }), fc.dictionary(labelName, labelValue, { maxKeys: 4 }), (key, values, labels) => {
        // Sorted and unique, as the formatter writes sets: Kubernetes rejects some raw forms such as "(a,,)".
        const list = [...new Set(values)].sort().join(",");
        expect(matchesLabels(parseLabelSelector(`${key} in (${list})`), labels)).toBe(!matchesLabels(parseLabelSelector(`${key} notin (${list})`), labels));
        expect(matchesLabels(parseLabelSelector(key), labels)).toBe(!matchesLabels(parseLabelSelector(`!${key}`), labels));
      }),
    );
  });

  it("never throws anything but SelectorParseError on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", "-", "_", "/", ".", "=", "!", "(", ")", ",", "<", ">", " ", "i", "n", "\0") }), (text) => {
        try {
          const parsed = parseLabelSelector(text);
          // Whatever parses must print and reparse to itself.
          expect(parseLabelSelector(formatLabelSelector(parsed))).toEqual(parsed);
        } catch (error) {
          expect(error).toBeInstanceOf(SelectorParseError);
        }
      }),
    );
  });
});
