import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { readTranscriptFile, referenceDir, SCALE_AND_REVIEWS_FILE } from "../../../spec/reference-transcripts.ts";
import { testServer } from "../test-server.ts";

const D = "/apis/apps/v1/namespaces/default/deployments";
const recordedScaleRun = readTranscriptFile(join(referenceDir, SCALE_AND_REVIEWS_FILE));

const minimal = (spec: Record<string, unknown> = {}) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "nginx", image: "nginx" }] } }, ...spec },
});

describe("Deployment defaults as a real kube-apiserver 1.26 sets them", () => {
  it("gives a new Deployment the recorded spec, in Go's field order (transcript scale-deployment-after)", async () => {
    const recorded = JSON.parse(recordedScaleRun.find((t) => t.id === "scale-deployment-after")!.response.body.text!);
    const created = await testServer().call("POST", D, minimal({ replicas: recorded.spec.replicas }));
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.json.spec)).toBe(JSON.stringify(recorded.spec));
  });

  it("defaults replicas to 1 and keeps what the client set", async () => {
    const created = await testServer().call(
      "POST",
      D,
      minimal({ strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } }, revisionHistoryLimit: 2, progressDeadlineSeconds: 60 }),
    );
    expect(created.json.spec).toMatchObject({ replicas: 1, strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: 1 } }, revisionHistoryLimit: 2, progressDeadlineSeconds: 60 });
  });

  it("gives a Recreate strategy no rollingUpdate", async () => {
    const created = await testServer().call("POST", D, minimal({ strategy: { type: "Recreate" } }));
    expect(created.json.spec.strategy).toEqual({ type: "Recreate" });
  });

  it("defaults on every write: an update that drops a defaulted field gets it back", async () => {
    const { call } = testServer();
    const created = await call("POST", D, minimal());
    const { strategy: _strategy, revisionHistoryLimit: _limit, ...rest } = created.json.spec;
    const updated = await call("PUT", `${D}/web`, { ...created.json, spec: rest });
    expect(updated.status).toBe(200);
    expect(updated.json.spec).toMatchObject({ strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } }, revisionHistoryLimit: 10 });
  });

  it("still answers a Deployment without a template 422 spec.template, not a defaulted one", async () => {
    const { spec, ...deployment } = minimal();
    const { template: _template, ...withoutTemplate } = spec;
    const created = await testServer().call("POST", D, { ...deployment, spec: withoutTemplate });
    expect(created.status).toBe(422);
    expect(created.json.details.causes).toEqual([{ reason: "FieldValueRequired", message: "Required value", field: "spec.template" }]);
  });
});
