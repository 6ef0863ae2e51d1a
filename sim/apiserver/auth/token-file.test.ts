import { describe, expect, it } from "vitest";
import { parseStaticTokenFile, TokenFileError } from "./token-file.ts";

function problemsOf(text: string): readonly string[] {
  try {
    parseStaticTokenFile(text);
  } catch (error) {
    if (error instanceof TokenFileError) return error.problems;
    throw error;
  }
  throw new Error("expected a TokenFileError");
}

describe("parseStaticTokenFile", () => {
  it("reads Kubernetes' format: token,user,uid and an optional quoted group list", () => {
    const { tokens, warnings } = parseStaticTokenFile(
      ['t-alice,alice,1001', 't-bob,bob,1002,"dev,ops"', '', 't-carol,carol,1003,viewers', ''].join("\n"),
    );
    expect(warnings).toEqual([]);
    expect(tokens.get("t-alice")).toEqual({ name: "alice", uid: "1001", groups: [] });
    expect(tokens.get("t-bob")).toEqual({ name: "bob", uid: "1002", groups: ["dev", "ops"] });
    expect(tokens.get("t-carol")).toEqual({ name: "carol", uid: "1003", groups: ["viewers"] });
    expect(tokens.size).toBe(3);
  });

  it("handles CRLF, doubled quotes, quoted commas and line breaks, a BOM and no final newline", () => {
    const { tokens } = parseStaticTokenFile('\ufeff"to,ken","Jane ""J"" Doe",7\r\n"multi\nline",u,8,"a,,b,"');
    expect(tokens.get("to,ken")).toEqual({ name: 'Jane "J" Doe', uid: "7", groups: [] });
    expect(tokens.get("multi\nline")).toEqual({ name: "u", uid: "8", groups: ["a", "b"] });
  });

  it("keeps spaces as written, as Go's csv reader does", () => {
    const { tokens } = parseStaticTokenFile("tok, alice,1\n");
    expect(tokens.get("tok")?.name).toBe(" alice");
  });

  it("warns, as Kubernetes logs, about empty and repeated tokens and extra columns; the last repeat wins", () => {
    const { tokens, warnings } = parseStaticTokenFile(",nobody,0\nt,first,1\nt,second,2,g,extra\n");
    expect(tokens.get("t")?.name).toBe("second");
    expect(tokens.has("")).toBe(false);
    expect(warnings).toEqual([
      "line 1: empty token, record skipped",
      "line 3: 1 column(s) after the groups ignored",
      "line 3: token already given on line 2; this record replaces it",
    ]);
  });

  it("reports every bad line by number", () => {
    const problems = problemsOf(['ok,alice,1', 'short,bob', 'bare"quote,carol,3', '"closed"x,dave,4', 'tok,,5', 'fine,erin,6'].join("\n"));
    expect(problems).toEqual([
      "line 2: needs at least 3 columns (token, user name, user uid), found 2",
      'line 3, column 5: a quote inside an unquoted field (quote the whole field and double the quote: "a""b")',
      'line 4, column 9: unexpected "x" after a closing quote (write "" for a quote inside a quoted field)',
      "line 5: the user name (2nd column) is empty",
    ]);
  });

  it("reports an unterminated quote at the line it opens", () => {
    expect(problemsOf('a,b,1\nc,d,2,"g1,g2\nmore,x,3\n')).toEqual(["line 2: the quoted field opened here is never closed"]);
  });

  it("numbers lines after a multi-line record correctly", () => {
    expect(problemsOf('"a\nb",u,1\nshort\n')).toEqual(["line 3: needs at least 3 columns (token, user name, user uid), found 1"]);
  });

  it("puts the problems in the error message", () => {
    expect(() => parseStaticTokenFile("x\n")).toThrow("token file: line 1: needs at least 3 columns (token, user name, user uid), found 1");
  });

  it("accepts an empty file (no users)", () => {
    expect(parseStaticTokenFile("").tokens.size).toBe(0);
    expect(parseStaticTokenFile("\n\n").tokens.size).toBe(0);
  });
});
