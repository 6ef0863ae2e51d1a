/**
 * The soak's client refuses, before sending anything, every request outside its namespace's
 * ConfigMaps (and its own namespace object): other namespaces, other resources, and paths that
 * would reach them once dot segments are resolved or encoded slashes decoded.
 */
import { describe, expect, it } from "vitest";
import { OutsideNamespaceError, SoakConnection } from "./soak-connection.ts";

const NAMESPACE = "orb-soak-test";

function connection(sent: string[]): SoakConnection {
  const transport = async (request: Request) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  return new SoakConnection({ transport, authHeaders: {} }, "http://127.0.0.1:1", NAMESPACE, 1_000);
}

describe("soak's client stays in its namespace", () => {
  it("sends requests on its own ConfigMaps and namespace", async () => {
    const sent: string[] = [];
    const client = connection(sent);
    await client.request("GET", `/api/v1/namespaces/${NAMESPACE}/configmaps/soak-k1`);
    await client.request("DELETE", `/api/v1/namespaces/${NAMESPACE}`);
    expect(sent).toEqual([`GET /api/v1/namespaces/${NAMESPACE}/configmaps/soak-k1`, `DELETE /api/v1/namespaces/${NAMESPACE}`]);
  });

  it.each([
    ["another namespace", "DELETE", "/api/v1/namespaces/kube-system/configmaps/x"],
    ["another resource", "GET", `/api/v1/namespaces/${NAMESPACE}/secrets`],
    ["dot segments", "DELETE", `/api/v1/namespaces/${NAMESPACE}/configmaps/../../kube-system/configmaps/x`],
    ["a dot segment the URL resolves to the namespace", "DELETE", `/api/v1/namespaces/${NAMESPACE}/configmaps/..`],
    ["an encoded slash", "DELETE", `/api/v1/namespaces/${NAMESPACE}/configmaps/a%2F..%2F..`],
    ["a subresource", "PUT", `/api/v1/namespaces/${NAMESPACE}/configmaps/x/status`],
  ])("refuses %s without sending it", async (_what, method, path) => {
    const sent: string[] = [];
    await expect(connection(sent).request(method, path)).rejects.toBeInstanceOf(OutsideNamespaceError);
    expect(sent).toEqual([]);
  });
});
