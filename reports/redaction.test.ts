import { describe, expect, it } from "vitest";
import { isSensitiveName, REDACTED, redactResults, redactSecrets, redactText } from "./redaction.ts";
import { renderReport, reportFormats } from "./render.ts";
import { SECRETS, secretResults } from "./test-support/fixtures.ts";

describe("redactText", () => {
  it.each([
    ["an Authorization header line", "Authorization: Bearer abc.def", "Authorization: [REDACTED]"],
    ["a Proxy-Authorization header line", "proxy-authorization: Basic dXNlcjpwYXNz", "proxy-authorization: [REDACTED]"],
    ["a Cookie header line", "GET /\nCookie: a=b; c=d\nAccept: */*", "GET /\nCookie: [REDACTED]\nAccept: */*"],
    ["a bearer token in prose", "sent bearer Zm9vYmFy.baz-123 twice", "sent bearer [REDACTED] twice"],
    ["a JWT", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-_x ok", "token [REDACTED] ok"],
    ["a token in a query", "/api?watch=1&token=abc123&limit=2", "/api?watch=1&token=[REDACTED]&limit=2"],
    ["a password and an access_token in a query", "?password=p%40ss&access_token=t", "?password=[REDACTED]&access_token=[REDACTED]"],
    ["a JSON credential field", `{"name":"x","token":"abc","clientSecret":"s"}`, `{"name":"x","token":"[REDACTED]","clientSecret":"[REDACTED]"}`],
    ["a YAML credential field", "users:\n- user:\n    token: abc\n    client-key-data: LS0xyz", "users:\n- user:\n    token: [REDACTED]\n    client-key-data: [REDACTED]"],
    ["a credential flag", "cli --server s --token abc123 --token=def --password 'p w'", "cli --server s --token [REDACTED] --token=[REDACTED] --password [REDACTED]"],
    ["a password in a URL", "dial https://admin:pw@host:6443/x", "dial https://admin:[REDACTED]@host:6443/x"],
  ])("removes %s", (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it("removes PEM private keys and certificates, whole, cut short, or JSON-escaped, and base64 PEM", () => {
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEsecret\n-----END RSA PRIVATE KEY-----";
    expect(redactText(`a ${key} b`)).toBe(`a -----BEGIN RSA PRIVATE KEY----- ${REDACTED} -----END RSA PRIVATE KEY----- b`);
    expect(redactText("x -----BEGIN CERTIFICATE-----\\nMIIcert\\n-----END CERTIFICATE----- y")).not.toContain("MIIcert");
    expect(redactText("cut -----BEGIN PRIVATE KEY-----\nMIIEcut")).not.toContain("MIIEcut");
    expect(redactText("data LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1J end")).toBe(`data ${REDACTED} end`);
  });

  it("keeps what is not a credential: continue tokens, resourceVersions, prose about tokens, ordinary headers", () => {
    const text = `/api/v1/pods?limit=2&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ&resourceVersion=12\ncontent-type: application/json\nexpected a Bearer token, got none\nneeds --restricted-token or --restricted-kubeconfig; --token=REDACTED stays`;
    expect(redactText(text)).toBe(text);
  });

  it("is idempotent", () => {
    const once = redactText("Authorization: Bearer x\n?token=y -----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----");
    expect(redactText(once)).toBe(once);
  });
});

describe("redactSecrets", () => {
  it("removes a secret raw, percent-encoded and JSON-escaped, and ignores empty strings", () => {
    const secret = 'p@ss "word"/x';
    const text = `raw ${secret} url ${encodeURIComponent(secret)} json ${JSON.stringify(secret)}`;
    expect(redactSecrets(text, [secret, ""])).toBe(`raw ${REDACTED} url ${REDACTED} json "${REDACTED}"`);
  });
});

describe("isSensitiveName", () => {
  it("knows credential names in any case and separator style, and not their look-alikes", () => {
    for (const name of ["Authorization", "proxy-authorization", "Cookie", "set-cookie", "x-auth-token", "access_token", "clientSecret", "client-key-data", "X-API-Key", "restricted-token"]) {
      expect(isSensitiveName(name), name).toBe(true);
    }
    for (const name of ["content-type", "continue", "secretName", "token-file", "resourceVersion", "kind"]) {
      expect(isSensitiveName(name), name).toBe(false);
    }
  });
});

describe("redactResults", () => {
  it("replaces credential header values whole and keeps the rest of the results intact", () => {
    const redacted = redactResults(secretResults(), { secrets: [SECRETS.runToken] });
    const exchange = redacted.cases[0]!.transcript[0]!;
    expect(exchange.requestHeaders).toEqual({ authorization: REDACTED, "Proxy-Authorization": REDACTED, cookie: REDACTED, accept: "application/json" });
    expect(exchange.responseHeaders).toEqual({ "set-cookie": REDACTED, "content-type": "application/json" });
    expect(redacted.cases.map((result) => result.id)).toEqual(["auth/leaky", "auth/skipped-leak", "auth/error-leak"]);
    expect(exchange.status).toBe(401);
  });
});

describe("every output of a run full of secrets", () => {
  for (const format of reportFormats) {
    it(`${format} contains none of them`, () => {
      const output = renderReport(secretResults(), format, { secrets: [SECRETS.runToken] });
      for (const [name, secret] of Object.entries(SECRETS)) expect(output, `${format} leaks ${name}`).not.toContain(secret);
      expect(output).toContain(REDACTED);
      expect(output).toContain("auth/leaky"); // the report is still there
    });
  }
});
