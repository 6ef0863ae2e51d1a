/**
 * The recording's safety against the embedded server: it never uses a namespace it did not create,
 * and an interrupt stops it and still deletes the namespace it made.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { startEmbeddedTarget } from "../targets/embedded-target.ts";
import type { Identity, Target } from "../targets/target.ts";
import { RecordError, recordReferenceRequests, type RecordOptions, type RecordTarget } from "./record-run.ts";

let target: Target;
let recordTarget: RecordTarget;

beforeAll(async () => {
  target = await startEmbeddedTarget(dialectByName("kubernetes"));
  const bare = (authHeaders: Record<string, string>): Identity => ({ transport: (request) => fetch(request), authHeaders });
  recordTarget = {
    url: target.url,
    admin: target.identity,
    restricted: undefined,
    anonymous: bare({}),
    unknownToken: bare({ authorization: "Bearer not-a-known-token" }),
    secrets: [...target.secrets, "not-a-known-token"],
  };
});

afterAll(async () => {
  await target.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const headers = { ...target.identity.authHeaders, "content-type": "application/json" };
  const response = await fetch(`${target.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

function options(overrides: Partial<RecordOptions> & { lines: string[]; warnings: string[] }): RecordOptions {
  const { lines, warnings, ...rest } = overrides;
  return {
    target: recordTarget,
    writeLine: async (line) => void lines.push(line),
    warn: (message) => warnings.push(message),
    watchHoldMs: 100,
    bookmarkHoldMs: 100,
    requestTimeoutMs: 10_000,
    ...rest,
  };
}

describe("recordReferenceRequests", () => {
  it("refuses to run in a namespace that exists, sends nothing into it and leaves it alone", async () => {
    await call("POST", "/api/v1/namespaces", { metadata: { name: "orb-record-taken" } });
    await call("POST", "/api/v1/namespaces/orb-record-taken/configmaps", { metadata: { name: "keep" }, data: { key: "mine" } });
    const lines: string[] = [];
    const run = recordReferenceRequests(options({ lines, warnings: [], namespace: "orb-record-taken" }));
    await expect(run).rejects.toThrow(RecordError);
    await expect(run).rejects.toThrow("namespace orb-record-taken already exists");
    expect(lines).toEqual([]);
    expect((await call("GET", "/api/v1/namespaces/orb-record-taken")).json.status.phase).toBe("Active");
    expect((await call("GET", "/api/v1/namespaces/orb-record-taken/configmaps")).json.items.map((item: any) => item.metadata.name)).toEqual(["keep"]);
  });

  it("refuses as well when one of the absent namespaces it writes into exists", async () => {
    await call("POST", "/api/v1/namespaces", { metadata: { name: "orb-record-mine-absent" } });
    await expect(recordReferenceRequests(options({ lines: [], warnings: [], namespace: "orb-record-mine" }))).rejects.toThrow("namespace orb-record-mine-absent already exists");
    expect((await call("GET", "/api/v1/namespaces/orb-record-mine")).status).toBe(404);
  });

  it("stops when interrupted, and still deletes the namespace it created", async () => {
    const interrupt = new AbortController();
    const lines: string[] = [];
    const summary = await recordReferenceRequests({
      ...options({ lines, warnings: [], namespace: "orb-record-interrupted" }),
      writeLine: async (line) => {
        lines.push(line);
        if (lines.length === 10) interrupt.abort();
      },
      signal: interrupt.signal,
    });
    expect(summary).toMatchObject({ interrupted: true, recorded: 10, namespaceOutcome: "deleted", failed: [] });
    expect(lines.map((line) => JSON.parse(line).id).slice(0, 2)).toEqual(["namespace-create", "version"]);
    const namespace = await call("GET", "/api/v1/namespaces/orb-record-interrupted");
    if (namespace.status !== 404) expect(namespace.json.status.phase).toBe("Terminating");
  });
});
