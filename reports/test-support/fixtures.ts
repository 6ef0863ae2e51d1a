/**
 * Results fixtures for the report tests: an ordinary run, a tricky one (markup characters, emoji,
 * controls XML forbids, `]]>`, a huge body) and one full of credentials a writer must never print.
 */
import type { CaseResult, Exchange, RunResults } from "../../conformance/results.ts";

/** An exchange with defaults; override what a test needs. */
export function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    method: "GET",
    path: "/api/v1/namespaces/default/configmaps?limit=2",
    status: 200,
    requestHeaders: { accept: "application/json" },
    responseHeaders: { "content-type": "application/json" },
    requestBody: "",
    responseBody: '{"kind":"ConfigMapList","metadata":{"resourceVersion":"12"}}',
    truncated: false,
    durationMs: 3,
    ...overrides,
  };
}

/** A case result with defaults; override what a test needs. */
export function caseResult(overrides: Partial<CaseResult> & Pick<CaseResult, "id">): CaseResult {
  return {
    area: overrides.id.split("/")[0] ?? "misc",
    clauses: [],
    tags: [],
    status: "pass",
    durationMs: 10,
    message: "",
    transcript: [],
    ...overrides,
  };
}

/** A run with defaults; override what a test needs. */
export function runResults(cases: readonly CaseResult[], overrides: Partial<RunResults> = {}): RunResults {
  return {
    schemaVersion: 1,
    harnessVersion: "0.1.0",
    target: { url: "https://cluster.example:6443", kind: "server", dialect: "kubernetes", serverVersion: "v1.26.15" },
    startedAt: "2025-01-02T03:04:05.000Z",
    finishedAt: "2025-01-02T03:04:17.500Z",
    command: "npx tsx scripts/cli.ts conformance --server https://cluster.example:6443 --token=REDACTED --dialect kubernetes --focus '^paging/'",
    cases,
    ...overrides,
  };
}

/** An ordinary run: passes, one failure naming a §4.7 cell, an error, two skips with one reason, one with another. */
export function sampleResults(): RunResults {
  return runResults([
    caseResult({ id: "paging/continue-empty", clauses: ["doc1/2.3/continue/empty-when-complete"], durationMs: 120 }),
    caseResult({
      id: "paging/rv0-any",
      clauses: ["doc1/4.7/list/match-unset/limit-unset/rv-0"],
      status: "fail",
      durationMs: 250,
      message: "expected at most 2 items, got 5",
      transcript: [exchange({ path: "/api/v1/namespaces/default/configmaps?limit=2&resourceVersion=0" })],
    }),
    caseResult({
      id: "errors/gone-watch",
      clauses: ["doc1/7/410/watch-too-old"],
      status: "error",
      durationMs: 60_000,
      message: "case timed out after 60 s",
      transcript: [exchange({ path: "/api/v1/configmaps?watch=1&resourceVersion=1", status: 0 })],
    }),
    caseResult({ id: "auth/forbidden", clauses: ["doc1/5/forbidden"], status: "skip", message: "needs --restricted-token or --restricted-kubeconfig" }),
    caseResult({ id: "auth/forbidden-dry-run", clauses: ["doc1/5/forbidden"], status: "skip", message: "needs --restricted-token or --restricted-kubeconfig" }),
    caseResult({ id: "watch/bookmark-slow", clauses: ["doc1/2.4/bookmark/resource-version-only"], status: "skip", message: "slow: run with --slow" }),
  ]);
}

/** Characters that break naive writers. */
export const TRICKY = {
  /** Quotes, angle brackets, ampersands, an emoji and a CDATA terminator. */
  markup: `quote " apos ' lt < gt > amp & entity &amp; cdata ]]> emoji 🚀 pipe | backtick \` star *`,
  /** Controls XML 1.0 forbids, a lone surrogate and U+FFFF. */
  controls: "bell\u0007 nul\u0000 esc\u001b vt\u000b ff\u000c lone\uD800 nonchar\uFFFF c1\u0085 end",
} as const;

/** A run whose ids, areas, messages and bodies hold every tricky character, and a body far over 4 KiB. */
export function trickyResults(): RunResults {
  const huge = `${"x".repeat(100_000)}🚀${"y".repeat(100_000)}`;
  return runResults(
    [
      caseResult({
        id: `tricky/"quoted" <id> & 'more' | pipe`,
        area: `tricky <area> & "co" | x`,
        clauses: ["doc1/2.2/other-fields", "doc1/not-a-clause"],
        status: "fail",
        message: `${TRICKY.markup}\nsecond line ${TRICKY.controls}`,
        transcript: [
          exchange({
            method: "POST",
            path: `/api/v1/namespaces/a&b/configmaps?labelSelector=x%3Dy&fieldSelector=<f>`,
            status: 422,
            requestHeaders: { "content-type": `application/json; note="<&>"` },
            requestBody: `{"data":{"k":"${TRICKY.markup}"}}`,
            responseBody: huge,
            truncated: true,
          }),
        ],
      }),
      caseResult({ id: "tricky/error ]]> here", area: `tricky <area> & "co" | x`, status: "error", message: TRICKY.controls }),
      caseResult({ id: "tricky/skip", area: "plain", status: "skip", message: TRICKY.markup }),
      caseResult({ id: "tricky/pass", area: "plain" }),
    ],
    { target: { url: `http://127.0.0.1:8080/?a=1&b=<2>`, kind: "embedded", dialect: "orb", serverVersion: "v0.0.0-orb" } },
  );
}

/** Secrets planted in secretResults; none may appear in any output. */
export const SECRETS = {
  runToken: "s3cr3t-run-token-Zq9",
  bearer: "ya29.A0ARrdaM-bearer-in-a-body",
  jwt: "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl",
  queryToken: "q-token-77f1e",
  password: "hunter2-passw0rd",
  cookie: "session=abc123cookievalue",
  pemBody: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
  certBody: "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa",
  base64Pem: "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Fo",
  urlPassword: "url-pa55word",
} as const;

/** A run where credentials slipped into every field a writer prints. */
export function secretResults(): RunResults {
  const pem = `-----BEGIN PRIVATE KEY-----\n${SECRETS.pemBody}\n-----END PRIVATE KEY-----`;
  const cert = `-----BEGIN CERTIFICATE-----\n${SECRETS.certBody}\n-----END CERTIFICATE-----`;
  return runResults(
    [
      caseResult({
        id: "auth/leaky",
        clauses: ["doc1/5/unauthenticated"],
        status: "fail",
        message: `sent Authorization: Bearer ${SECRETS.bearer} and token ${SECRETS.runToken}; got ${SECRETS.jwt}`,
        transcript: [
          exchange({
            method: "POST",
            path: `/api/v1/namespaces/default/secrets?token=${SECRETS.queryToken}&password=${SECRETS.password}`,
            status: 401,
            requestHeaders: {
              authorization: `Bearer ${SECRETS.runToken}`,
              "Proxy-Authorization": `Basic ${SECRETS.password}`,
              cookie: SECRETS.cookie,
              accept: "application/json",
            },
            responseHeaders: { "set-cookie": SECRETS.cookie, "content-type": "application/json" },
            requestBody: JSON.stringify({ key: pem, cert, kubeconfig: { "client-key-data": SECRETS.base64Pem, token: SECRETS.runToken } }),
            responseBody: `{"message":"Authorization: Bearer ${SECRETS.bearer}","echo":"${pem.replace(/\n/g, "\\n")}"}`,
          }),
        ],
      }),
      caseResult({ id: "auth/skipped-leak", status: "skip", message: `no access: password=${SECRETS.password}` }),
      caseResult({ id: "auth/error-leak", status: "error", message: `connect https://admin:${SECRETS.urlPassword}@cluster.example failed; cookie: ${SECRETS.cookie}` }),
    ],
    {
      target: { url: `https://admin:${SECRETS.urlPassword}@cluster.example:6443`, kind: "server", dialect: "kubernetes", serverVersion: "v1.26.15" },
      command: `npx tsx scripts/cli.ts conformance --server https://cluster.example:6443 --token ${SECRETS.runToken} --restricted-token=${SECRETS.bearer}`,
    },
  );
}
