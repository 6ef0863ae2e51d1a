/**
 * The identities of a recording, reached through a kubeconfig: the administrator is the
 * kubeconfig's user, the unknown token is refused, and the token given never shows in what the
 * connection lists as safe to print.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName } from "../../spec/dialects.ts";
import { startEmbeddedTarget } from "../targets/embedded-target.ts";
import type { Identity, Target } from "../targets/target.ts";
import { connectForRecording } from "./record-connection.ts";

let target: Target;
let dir: string;

beforeAll(async () => {
  target = await startEmbeddedTarget(dialectByName("kubernetes"));
  dir = await mkdtemp(join(tmpdir(), "orb-record-connection-"));
});

afterAll(async () => {
  await target.close();
  await rm(dir, { recursive: true, force: true });
});

async function statusOf(url: string, identity: Identity, path: string): Promise<number> {
  const response = await identity.transport(new Request(`${url}${path}`, { headers: { ...identity.authHeaders, accept: "application/json" } }));
  await response.arrayBuffer();
  return response.status;
}

describe("connectForRecording", () => {
  it("reaches every identity through a kubeconfig", async () => {
    const token = target.identity.authHeaders["authorization"]!.replace(/^Bearer /, "");
    const kubeconfig = join(dir, "config");
    await writeFile(
      kubeconfig,
      JSON.stringify({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "embedded", cluster: { server: target.url } }],
        users: [{ name: "admin", user: { token } }],
        contexts: [{ name: "embedded", context: { cluster: "embedded", user: "admin" } }],
        "current-context": "embedded",
      }),
    );
    const connection = await connectForRecording({ kubeconfig });
    expect(connection.url).toBe(target.url);
    expect(connection.restricted).toBeUndefined();
    expect(connection.secrets).toContain(token);
    expect(await statusOf(connection.url, connection.admin, "/api/v1/namespaces")).toBe(200);
    expect(await statusOf(connection.url, connection.unknownToken, "/api/v1/namespaces")).toBe(401);
    expect(connection.anonymous.authHeaders).toEqual({});
    const unknown = connection.unknownToken.authHeaders["authorization"]!.replace(/^Bearer /, "");
    expect(connection.secrets).toContain(unknown);
  });
});
