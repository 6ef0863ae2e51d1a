import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clauseById } from "./clauses.ts";
import {
  getTableCells,
  listCell,
  listTableCells,
  lookupGetSemantic,
  lookupListSemantic,
  lookupWatchSemantic,
  parseListLimit,
  readSemantics,
  watchSemantics,
  watchTableCells,
  type ListQuery,
  type TableLookup,
} from "./resource-version-tables.ts";

// Doc 1 §4.7, copied by hand from the document: the expectation the data is checked against.
const DOC_LIST_TABLE = `
| unset | limit unset | Most Recent | Any | Not older than |
| unset | limit=n, continue unset | Most Recent | Any | Exact |
| unset | limit=n, continue=token | Continue Token, Exact | Invalid, treated as Continue Token, Exact | Invalid, HTTP 400 |
| Exact | limit unset | Invalid | Invalid | Exact |
| Exact | limit=n, continue unset | Invalid | Invalid | Exact |
| NotOlderThan | limit unset | Invalid | Any | Not older than |
| NotOlderThan | limit=n, continue unset | Invalid | Any | Not older than |
`;
const DOC_GET_ROW = "| Most Recent | Any | Not older than |";
const DOC_WATCH_ROW = "| Get State and Start at Most Recent | Get State and Start at Any | Start at Exact |";

// One concrete request per column and per paging row.
const COLUMNS = [undefined, "0", "1234"] as const;
const PAGING: Record<string, Pick<ListQuery, "limit" | "continueToken">> = {
  "limit unset": {},
  "limit=n, continue unset": { limit: 2 },
  "limit=n, continue=token": { limit: 2, continueToken: "opaque-token" },
};

// What each of the document's cell texts must come out as.
type Expected = { kind: "semantic"; semantic: string; documented: true } | { kind: "invalid"; status: number; documented: boolean };
const MEANING: Record<string, Expected> = {
  "Most Recent": { kind: "semantic", semantic: "MostRecent", documented: true },
  Any: { kind: "semantic", semantic: "Any", documented: true },
  "Not older than": { kind: "semantic", semantic: "NotOlderThan", documented: true },
  Exact: { kind: "semantic", semantic: "Exact", documented: true },
  "Continue Token, Exact": { kind: "semantic", semantic: "ContinueTokenExact", documented: true },
  "Invalid, treated as Continue Token, Exact": { kind: "semantic", semantic: "ContinueTokenExact", documented: true },
  "Invalid, HTTP 400": { kind: "invalid", status: 400, documented: true },
  // Doc 1 gives no status; Kubernetes answers 422 (transcripts list-rvmatch-no-rv, list-rvmatch-exact-rv0).
  Invalid: { kind: "invalid", status: 422, documented: false },
};

const WATCH_MEANING: Record<string, string> = {
  "Get State and Start at Most Recent": "GetStateAndStartAtMostRecent",
  "Get State and Start at Any": "GetStateAndStartAtAny",
  "Start at Exact": "StartAtExact",
};

function cellsOf(row: string): string[] {
  return row.split("|").slice(1, -1).map((s) => s.trim());
}

function summary(result: TableLookup<string>): Expected {
  return result.kind === "semantic"
    ? { kind: "semantic", semantic: result.semantic, documented: true }
    : { kind: "invalid", status: result.status, documented: result.documented };
}

describe("list table (doc 1 §4.7)", () => {
  const rows = DOC_LIST_TABLE.trim().split("\n").map(cellsOf);

  it("answers every cell of the document as the document says", () => {
    expect(rows).toHaveLength(7);
    for (const [match, paging, ...texts] of rows) {
      texts.forEach((text, column) => {
        const query: ListQuery = {
          ...PAGING[paging ?? ""],
          resourceVersion: COLUMNS[column],
          resourceVersionMatch: match === "unset" ? undefined : match,
        };
        const result = lookupListSemantic(query);
        const expected = MEANING[text];
        expect(expected, text).toBeDefined();
        expect(summary(result), `${match} / ${paging} / column ${column}`).toEqual(expected);
        if (result.kind === "semantic") expect(result.documented).toBe(true);
      });
    }
  });

  it("stores the document's own words in every documented cell", () => {
    for (const [match, paging, ...texts] of rows) {
      const matchKey = match === "unset" ? "unset" : (match as "Exact" | "NotOlderThan");
      const pagingKey = paging === "limit unset" ? "limit-unset" : paging === "limit=n, continue unset" ? "limit-no-continue" : "limit-continue";
      texts.forEach((text, column) => {
        const cell = listCell(matchKey, pagingKey, (["unset", "0", "other"] as const)[column] ?? "unset");
        expect(cell.documentText).toBe(text);
      });
    }
  });

  it("holds the full 3 x 3 x 3 grid exactly once", () => {
    const keys = listTableCells.map((c) => `${c.match}/${c.paging}/${c.resourceVersion}`);
    expect(new Set(keys).size).toBe(27);
    expect(listTableCells).toHaveLength(27);
    expect(listTableCells.filter((c) => c.documentText !== undefined)).toHaveLength(21);
  });

  it("cites clauses that exist, with the row as their parent", () => {
    for (const cell of listTableCells) {
      expect(clauseById(cell.clause).parent).toBe(cell.row);
      for (const related of cell.related) clauseById(related);
    }
  });

  it("answers 400 for limit, continue and a resourceVersion other than 0 (doc 1 §7)", () => {
    const result = lookupListSemantic({ limit: 2, continueToken: "t", resourceVersion: "5" });
    expect(result).toMatchObject({ kind: "invalid", status: 400, reason: "BadRequest", documented: true });
    expect(result.alsoCites).toContain("doc1/7/400/limit-continue-rv");
  });

  it("serves continue with resourceVersion 0 from the token (transcript list-continue-with-rv0)", () => {
    expect(lookupListSemantic({ limit: 2, continueToken: "t", resourceVersion: "0" })).toMatchObject({
      kind: "semantic",
      semantic: "ContinueTokenExact",
      clause: "doc1/4.7/list/match-unset/limit-continue/rv-0",
    });
  });

  it("answers 422 for resourceVersionMatch without resourceVersion (transcript list-rvmatch-no-rv)", () => {
    const result = lookupListSemantic({ resourceVersionMatch: "Exact" });
    expect(result).toMatchObject({ kind: "invalid", status: 422, reason: "Invalid", documented: false });
    expect(result.alsoCites).toContain("doc1/4.2/resource-version-match/requires-resource-version");
  });

  it("answers 422 for Exact at resourceVersion 0 (transcript list-rvmatch-exact-rv0)", () => {
    expect(lookupListSemantic({ resourceVersionMatch: "Exact", resourceVersion: "0" })).toMatchObject({ kind: "invalid", status: 422 });
  });

  it("answers 422 for an unknown resourceVersionMatch (transcript list-rvmatch-unknown)", () => {
    expect(lookupListSemantic({ resourceVersionMatch: "Bogus", resourceVersion: "5" })).toMatchObject({
      kind: "invalid",
      status: 422,
      clause: "doc1/4.2/resource-version-match/values",
      documented: false,
    });
  });

  it("answers 422 with both causes for a match mode with continue and no version (transcript list-rvmatch-with-continue)", () => {
    const result = lookupListSemantic({ limit: 2, resourceVersionMatch: "NotOlderThan", continueToken: "t" });
    expect(result).toMatchObject({ kind: "invalid", status: 422, clause: "doc1/4.7/list/not-older-than/limit-continue/rv-unset" });
    expect(result.kind === "invalid" ? result.causes : []).toHaveLength(2);
  });

  it("answers 422 for Exact with continue whatever the version", () => {
    for (const resourceVersion of COLUMNS) {
      expect(lookupListSemantic({ limit: 2, resourceVersionMatch: "Exact", continueToken: "t", resourceVersion })).toMatchObject({
        kind: "invalid",
        status: 422,
        documented: false,
      });
    }
  });

  it("answers 400 for a limit that is not an integer (transcript list-limit-abc)", () => {
    for (const limit of ["abc", "1.5", "", "9223372036854775808", 2.5, Number.NaN]) {
      const result = lookupListSemantic({ limit });
      if (limit === "") expect(result.kind).toBe("semantic");
      else expect(result, String(limit)).toMatchObject({ kind: "invalid", status: 400, clause: "doc1/4.2/limit/not-integer" });
    }
  });

  it("treats a limit of zero or below as unset (transcript list-limit-negative)", () => {
    const result = lookupListSemantic({ limit: "-1", resourceVersion: "5" });
    expect(result).toMatchObject({ kind: "semantic", semantic: "NotOlderThan", documented: false });
    expect(result.alsoCites).toContain("doc1/4.2/limit/non-positive");
    expect(lookupListSemantic({ limit: 0, resourceVersion: "5" })).toMatchObject({ semantic: "NotOlderThan" });
  });

  it("takes the continue row for a continue token without limit, marked undocumented", () => {
    const result = lookupListSemantic({ continueToken: "t" });
    expect(result).toMatchObject({ kind: "semantic", semantic: "ContinueTokenExact", documented: false });
    expect(result.alsoCites).toContain("doc1/4.2/continue/without-limit");
    expect(lookupListSemantic({ continueToken: "t", resourceVersion: "9" })).toMatchObject({ kind: "invalid", status: 400 });
  });

  it("treats empty parameters as absent", () => {
    expect(lookupListSemantic({ resourceVersion: "", resourceVersionMatch: "", continueToken: "", limit: "" })).toMatchObject({
      kind: "semantic",
      semantic: "MostRecent",
    });
  });

  it("treats every resourceVersion other than 0 alike, as opaque (doc 1 §4.2)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((rv) => rv !== "0"),
        fc.constantFrom(undefined, "Exact", "NotOlderThan", "Bogus"),
        fc.constantFrom(undefined, 1, -3, "7", "x"),
        fc.constantFrom(undefined, "token"),
        (resourceVersion, resourceVersionMatch, limit, continueToken) => {
          const query = { resourceVersionMatch, limit, continueToken };
          const a = lookupListSemantic({ ...query, resourceVersion });
          const b = lookupListSemantic({ ...query, resourceVersion: "1234" });
          expect(a).toEqual(b);
        },
      ),
    );
  });

  it("never throws, and refuses only with 400 or 422", () => {
    fc.assert(
      fc.property(
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.oneof(fc.string(), fc.constantFrom("Exact", "NotOlderThan")), { nil: undefined }),
        fc.option(fc.oneof(fc.string(), fc.integer(), fc.double()), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (resourceVersion, resourceVersionMatch, limit, continueToken) => {
          const result = lookupListSemantic({ resourceVersion, resourceVersionMatch, limit, continueToken });
          if (result.kind === "invalid") expect([400, 422]).toContain(result.status);
          else expect(Object.keys(readSemantics)).toContain(result.semantic);
        },
      ),
    );
  });

  it("agrees with the get table when neither a match mode nor paging is set", () => {
    for (const resourceVersion of COLUMNS) {
      const list = lookupListSemantic({ resourceVersion });
      const get = lookupGetSemantic({ resourceVersion });
      expect(list.kind === "semantic" && list.semantic).toBe(get.kind === "semantic" && get.semantic);
    }
  });
});

describe("parseListLimit", () => {
  it("parses signed 64-bit integers as Kubernetes does", () => {
    expect(parseListLimit("+5")).toEqual({ kind: "limit", limit: 5 });
    expect(parseListLimit(500)).toEqual({ kind: "limit", limit: 500 });
    expect(parseListLimit("9223372036854775807")).toMatchObject({ kind: "limit" });
    expect(parseListLimit("0")).toEqual({ kind: "unset", nonPositive: true });
    expect(parseListLimit(undefined)).toEqual({ kind: "unset", nonPositive: false });
    expect(parseListLimit(" 5")).toEqual({ kind: "invalid", raw: " 5" });
    expect(parseListLimit(Number.POSITIVE_INFINITY)).toMatchObject({ kind: "invalid" });
  });
});

describe("get table (doc 1 §4.7)", () => {
  it("answers each column as the document says", () => {
    cellsOf(DOC_GET_ROW).forEach((text, column) => {
      const result = lookupGetSemantic({ resourceVersion: COLUMNS[column] });
      expect(summary(result)).toEqual(MEANING[text]);
      expect(getTableCells[column]?.documentText).toBe(text);
      expect(clauseById(result.clause).section).toBe("4.7");
    });
  });
});

describe("watch table (doc 1 §4.7)", () => {
  it("answers each column as the document says", () => {
    cellsOf(DOC_WATCH_ROW).forEach((text, column) => {
      const result = lookupWatchSemantic({ resourceVersion: COLUMNS[column] });
      expect(result).toMatchObject({ kind: "semantic", semantic: WATCH_MEANING[text], documented: true });
      expect(watchTableCells[column]?.documentText).toBe(text);
      clauseById(result.clause);
    });
  });

  it("refuses resourceVersionMatch on a watch with 422 (list only, doc 1 §4.2)", () => {
    expect(lookupWatchSemantic({ resourceVersion: "5", resourceVersionMatch: "NotOlderThan" })).toMatchObject({
      kind: "invalid",
      status: 422,
      clause: "doc1/4.2/resource-version-match/list-only",
      documented: false,
    });
  });
});

describe("semantic meanings", () => {
  it("define every semantic a cell can answer, citing clauses that exist", () => {
    const used = new Set(listTableCells.flatMap((c) => (c.answer.kind === "semantic" ? [c.answer.semantic] : [])));
    for (const semantic of used) expect(Object.keys(readSemantics)).toContain(semantic);
    for (const meaning of [...Object.values(readSemantics), ...Object.values(watchSemantics)]) {
      expect(meaning.clauses.length).toBeGreaterThan(0);
      for (const clause of meaning.clauses) clauseById(clause);
    }
  });

  it("names each semantic as the document's tables do", () => {
    const names = new Set(cellsOf(DOC_GET_ROW).concat(["Exact", "Continue Token, Exact"]));
    expect(new Set(Object.values(readSemantics).map((m) => m.documentName))).toEqual(names);
    expect(new Set(Object.values(watchSemantics).map((m) => m.documentName))).toEqual(new Set(cellsOf(DOC_WATCH_ROW)));
  });
});
