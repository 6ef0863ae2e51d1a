/** The credential search of the safety tests (issue #14) finds a secret in each form a leak takes. */
import { describe, expect, it } from "vitest";
import { findSecrets, secretForms } from "./secret-grep.ts";

describe("the credential search", () => {
  it("finds a secret raw, base64 (padded or not) and base64url, and nothing in clean text", () => {
    const secret = "token?>>";
    expect(secretForms(secret)).toEqual({ raw: "token?>>", base64: "dG9rZW4/Pj4", base64url: "dG9rZW4_Pj4" });
    const outputs = { stdout: "using token?>> now", "results.json": '{"data":"dG9rZW4/Pj4="}', "report.html": "jwt x.dG9rZW4_Pj4.y", stderr: "[redacted]" };
    expect(findSecrets(outputs, { "the token": secret })).toEqual(["stdout: raw of the token", "results.json: base64 of the token", "report.html: base64url of the token"]);
  });
});
