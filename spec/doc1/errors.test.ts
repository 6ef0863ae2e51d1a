import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../reference-transcripts.ts";
import { clauseById } from "./clauses.ts";
import { errorTable, statusCodeFor, statusReasons, tooLargeResourceVersion, type StatusReason } from "./errors.ts";

// The reasons and codes the server must use, written out independently of errors.ts.
const EXPECTED_CODES: Record<StatusReason, number> = {
  NotFound: 404,
  AlreadyExists: 409,
  Conflict: 409,
  Invalid: 422,
  BadRequest: 400,
  Expired: 410,
  Gone: 410,
  Forbidden: 403,
  Unauthorized: 401,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  UnsupportedMediaType: 415,
  RequestEntityTooLarge: 413,
  Timeout: 504,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
};

describe("status reasons", () => {
  it("map each reason to its Kubernetes code", () => {
    expect(Object.keys(statusReasons).sort()).toEqual(Object.keys(EXPECTED_CODES).sort());
    for (const [reason, code] of Object.entries(EXPECTED_CODES)) {
      expect(statusCodeFor(reason as StatusReason), reason).toBe(code);
    }
  });
});

describe("doc 1 §7 error table", () => {
  it("has the document's six rows in order", () => {
    expect(errorTable.map((row) => row.status)).toEqual([
      "410 Gone",
      "406",
      "400 Bad Request",
      "504 Gateway Timeout",
      "Retry-After header",
      "dry-run failure",
    ]);
    expect(errorTable[0]?.conditions).toHaveLength(5);
  });

  it("cites clauses of §7 that exist", () => {
    for (const row of errorTable) {
      expect(clauseById(row.clientHandlingClause).section).toBe("7");
      for (const condition of row.conditions) expect(clauseById(condition.clause).section, condition.clause).toBe("7");
    }
  });

  it("gives each condition a reason whose code is the row's status", () => {
    for (const row of errorTable) {
      if (row.code === undefined) continue;
      for (const condition of row.conditions) {
        expect(condition.reason, condition.text).toBeDefined();
        if (condition.reason !== undefined) expect(statusCodeFor(condition.reason)).toBe(row.code);
      }
    }
  });

  it("describes the 504 for a too-large resourceVersion as the document does", () => {
    expect(tooLargeResourceVersion.code).toBe(504);
    expect(statusCodeFor(tooLargeResourceVersion.reason)).toBe(504);
    expect(errorTable[3]?.conditions[0]?.text).toContain(tooLargeResourceVersion.messageMentions);
  });
});

const all = loadReferenceTranscripts();

describe("against the kube-apiserver 1.26 transcripts", () => {
  it("shows every reason with the code and reason recorded here", () => {
    for (const [reason, info] of Object.entries(statusReasons)) {
      if (info.transcript === undefined) continue;
      const transcript = transcriptById(all, info.transcript);
      expect(transcript.response.status, info.transcript).toBe(info.code);
      expect(transcriptJson(transcript), info.transcript).toMatchObject({ kind: "Status", reason, code: info.code });
    }
  });

  it("shows the §7 conditions with the reasons recorded here", () => {
    for (const condition of errorTable.flatMap((row) => row.conditions)) {
      if (condition.transcript === undefined || condition.reason === undefined) continue;
      const transcript = transcriptById(all, condition.transcript);
      const text = transcript.response.body.text ?? "";
      // A watch answers 200 and carries the Status in an ERROR event (deviation watch-expired).
      const status = transcript.request.path.includes("watch=") ? (JSON.parse(text) as { object: unknown }).object : transcriptJson(transcript);
      expect(status, condition.transcript).toMatchObject({ reason: condition.reason, code: statusCodeFor(condition.reason) });
    }
  });

  it("shows the 504 for a too-large resourceVersion as recorded here", () => {
    for (const id of ["list-rv-future", "get-rv-future"]) {
      const transcript = transcriptById(all, id);
      expect(transcript.response.status).toBe(tooLargeResourceVersion.code);
      expect(transcript.response.headers["retry-after"]).toBe(String(tooLargeResourceVersion.retryAfterSeconds));
      const status = transcriptJson(transcript) as { message: string };
      expect(status).toMatchObject({
        reason: tooLargeResourceVersion.reason,
        details: {
          causes: [{ reason: tooLargeResourceVersion.causeReason }],
          retryAfterSeconds: tooLargeResourceVersion.retryAfterSeconds,
        },
      });
      expect(status.message).toContain(tooLargeResourceVersion.messageMentions);
    }
  });
});
