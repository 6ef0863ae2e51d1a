/**
 * The embedded server's throughput through its handler (`npm run bench:micro`): creates per second,
 * and a list of 10,000 pods of ~2 KiB (doc 1 §8's example load) unpaged and in pages of 500,
 * JSON encoding included.
 */
import { bench, describe } from "vitest";
import { testServer, type TestServer } from "./test-server.ts";

const PODS = 10_000;
const PATH = "/api/v1/namespaces/default/pods";
const pod = (i: number) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: `pod-${String(i).padStart(5, "0")}`, labels: { app: "bench" } },
  spec: { containers: [{ name: "c", image: "registry.example/app:1", args: ["x".repeat(1800)] }] },
});

async function createPods(server: TestServer, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await server.call("POST", PATH, pod(i));
    if (response.status !== 201) throw new Error(`create failed: ${response.status}`);
  }
}

describe("creates", () => {
  bench("create 1,000 pods of ~2 KiB", async () => {
    await createPods(testServer(), 1_000);
  }, { iterations: 5 });
});

describe(`list ${PODS} pods of ~2 KiB`, async () => {
  const server = testServer();
  await createPods(server, PODS);
  bench("unpaged", async () => {
    const response = await server.server.handle(new Request(`http://bench${PATH}`));
    await response.arrayBuffer();
  }, { iterations: 10 });
  bench("limit=500, all pages", async () => {
    let next: string | undefined = `${PATH}?limit=500`;
    while (next !== undefined) {
      const page: any = (await server.call("GET", next)).json;
      next = page.metadata.continue ? `${PATH}?limit=500&continue=${encodeURIComponent(page.metadata.continue)}` : undefined;
    }
  }, { iterations: 10 });
});
