/**
 * Authentication and authorization bypass attempts (issue #14, "Security"), against the embedded
 * server as `serve --dialect kubernetes --token-file --policy-file --tls-cert-file` runs it, on a
 * real https socket: every attempt of the catalog (bypass-attempts.ts) must get exactly the answer
 * kube-apiserver 1.26.4 gave (transcripts-security.jsonl: status, content type, the Status body
 * with its reason and message), no answer may carry object data, and nothing may be written.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTranscriptFile, referenceDir, SECURITY_FILE, type Transcript } from "../../../spec/reference-transcripts.ts";
import { startLoopbackServer, type LoopbackServer } from "../../transport/loopback-server.ts";
import { readTlsFiles } from "../../transport/tls-files.ts";
import {
  attemptHeaders,
  BYPASS_ATTEMPTS,
  DATA_MARKERS,
  materialize,
  SECURITY_POLICY_FILE,
  SECURITY_SETUP,
  securityTokenFile,
  sendRaw,
  type AttemptTokens,
  type BypassAttempt,
} from "./bypass-attempts.ts";
import { parsePolicyFile } from "./policy-file.ts";
import { parseStaticTokenFile } from "./token-file.ts";

const credentials = readTlsFiles(
  fileURLToPath(new URL("../../transport/testdata/server.crt", import.meta.url)),
  fileURLToPath(new URL("../../transport/testdata/server.key", import.meta.url)),
);
const tokens: AttemptTokens = { admin: "sec-admin-token", restricted: "sec-restricted-token", unknown: "sec-unknown-token" };
const transcripts = new Map(readTranscriptFile(join(referenceDir, SECURITY_FILE)).map((transcript) => [transcript.id, transcript]));

/** The recorded answer of an attempt; a missing one fails the attempt loudly. */
function recorded(attempt: BypassAttempt): Transcript {
  const transcript = transcripts.get(attempt.id);
  if (transcript === undefined) throw new Error(`no recorded answer for ${attempt.id} in ${SECURITY_FILE}`);
  return transcript;
}

/** Drops what only a real server has: managedFields (with wall times) and ids and times of its objects. */
function comparable(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value: unknown) =>
    ["managedFields", "uid", "resourceVersion", "creationTimestamp"].includes(key) ? undefined : value,
  ) as unknown;
}

describe("bypass attempts get kube-apiserver 1.26.4's answer, no data, no write", () => {
  let loopback: LoopbackServer;

  beforeAll(async () => {
    loopback = await startLoopbackServer({
      seed: "bypass-attempts",
      tls: credentials,
      auth: { tokens: parseStaticTokenFile(securityTokenFile(tokens)).tokens, policy: parsePolicyFile(SECURITY_POLICY_FILE) },
    });
    const admin = (path: string, body: unknown) =>
      sendRaw(
        loopback.url,
        { method: "POST", path, headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" }, body: Buffer.from(JSON.stringify(body)) },
        { ca: credentials.cert },
      );
    for (const namespace of SECURITY_SETUP.namespaces) {
      const created = await admin("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
      expect(created.status, created.body).toBe(201);
    }
    for (const object of SECURITY_SETUP.objects) {
      const created = await admin(object.path, object.body);
      expect(created.status, created.body).toBe(201);
    }
  });

  afterAll(async () => {
    await loopback?.close();
  });

  it("has a recorded answer for every attempt, and records no token", () => {
    expect(BYPASS_ATTEMPTS.map((attempt) => attempt.id)).toEqual([...transcripts.keys()]);
    for (const attempt of BYPASS_ATTEMPTS) {
      const transcript = recorded(attempt);
      expect([transcript.request.method, transcript.request.path, transcript.request.body]).toEqual([attempt.method, attempt.path, attempt.body]);
      const headers = attemptHeaders(attempt);
      if (attempt.identity !== "custom") delete headers["authorization"];
      expect(transcript.request.headers).toEqual(headers);
    }
  });

  for (const attempt of BYPASS_ATTEMPTS) {
    it(`${attempt.id}: ${attempt.note}`, async () => {
      const transcript = recorded(attempt);
      const revision = loopback.server.store.revision;
      const answer = await sendRaw(loopback.url, materialize(attempt, tokens), { ca: credentials.cert, streamMs: 1_000 });
      const expected = transcript.response;

      // Nothing written, whatever the answer.
      expect(loopback.server.store.revision, "a write happened").toBe(revision);
      expect(answer.cut, "the answer was still streaming").toBe(false);
      expect(answer.status, answer.body.slice(0, 500)).toBe(expected.status);
      expect(answer.headers["content-type"]).toBe(expected.headers["content-type"]);
      expect(answer.headers["warning"]).toBe(expected.headers["warning"]);
      if (attempt.control === undefined) {
        for (const marker of Object.values(DATA_MARKERS)) expect(answer.body, "object data in the answer").not.toContain(marker);
      }
      const text = expected.body.text ?? "";
      if (!(expected.headers["content-type"] ?? "").startsWith("application/json")) {
        expect(answer.body).toBe(text);
        return;
      }
      const want = JSON.parse(text) as { kind?: string };
      if (want.kind === "Status") {
        // The Status byte for byte: reason, message, details and code as kube-apiserver wrote them.
        expect(answer.body).toBe(text);
      } else {
        expect(comparable(JSON.parse(answer.body))).toEqual(comparable(want));
      }
    });
  }
});
