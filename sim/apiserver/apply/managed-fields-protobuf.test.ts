/**
 * managedFields through Protobuf: an applied Deployment read as Protobuf decodes to what JSON
 * answers (ManagedFieldsEntry and FieldsV1 from the recorded message tables), and encodes back to
 * the same bytes; a scale entry without a time survives too.
 */
import { describe, expect, it } from "vitest";
import { decodeObject, encodeObject } from "../protobuf/index.ts";
import { testServer } from "../test-server.ts";

const DEPLOY = "/apis/apps/v1/namespaces/default/deployments";

describe("managedFields in Protobuf", () => {
  it("round-trips an applied and scaled Deployment's entries", async () => {
    const { call, server } = testServer("kubernetes", { trackManagedFields: true });
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web" },
      spec: { selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "main", image: "nginx:1.25" }] } } },
    };
    const applied = await call("PATCH", `${DEPLOY}/web?fieldManager=A`, JSON.stringify(deployment), { "content-type": "application/apply-patch+yaml" });
    expect(applied.status).toBe(201);
    const scaled = await call("PATCH", `${DEPLOY}/web/scale?fieldManager=scaler`, { spec: { replicas: 3 } }, { "content-type": "application/merge-patch+json" });
    expect(scaled.status).toBe(200);
    const json = (await call("GET", `${DEPLOY}/web`)).json;
    expect(json.metadata.managedFields.map((entry: any) => [entry.manager, entry.operation, entry.subresource, "time" in entry])).toEqual([
      ["A", "Apply", undefined, true],
      ["scaler", "Update", "scale", false],
    ]);
    const response = await server.handle(new Request(`http://test.local${DEPLOY}/web`, { headers: { accept: "application/vnd.kubernetes.protobuf" } }));
    const bytes = new Uint8Array(await response.arrayBuffer());
    const decoded = decodeObject(bytes);
    expect(decoded.object["metadata"]).toEqual(json.metadata);
    expect(encodeObject("apps/v1", "Deployment", decoded.object)).toEqual(bytes);
  });
});
