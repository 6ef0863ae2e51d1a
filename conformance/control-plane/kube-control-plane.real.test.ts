/**
 * startKubeControlPlane against the real binaries (real-server tier): it starts, serves the admin
 * with its certificate, runs the controller manager (the default ServiceAccount exists), and stop()
 * leaves no process and no scratch directory behind.
 */
import { existsSync, readFileSync } from "node:fs";
import { Agent, fetch } from "undici";
import { describe, expect, it } from "vitest";
import { ASSETS_ENVIRONMENT_VARIABLE } from "./kube-assets.ts";
import { startKubeControlPlane } from "./kube-control-plane.ts";
import { isProcessAlive } from "./process-alive.ts";

const assetsDir = process.env[ASSETS_ENVIRONMENT_VARIABLE]!;


describe("a control plane started from the binaries", () => {
  it("serves its admin, makes default ServiceAccounts, and stops without a trace", async () => {
    const progress: string[] = [];
    const plane = await startKubeControlPlane({ assetsDir, profile: "fast-expiry", onProgress: (line) => progress.push(line) });
    const pids = ["etcd", "kube-apiserver", "kube-controller-manager"].map((name) => Number(readFileSync(`${plane.scratchDir}/${name}.pid`, "utf8")));
    try {
      expect(progress[0]).toBe("starting etcd");
      expect(progress).toContain("starting kube-apiserver (profile fast-expiry)");
      expect(plane.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(plane.controllerManager).toBe(true);
      const dispatcher = new Agent({ connect: { ca: plane.certificateAuthorityPem } });
      const get = (path: string, token = plane.adminToken) => fetch(`${plane.url}${path}`, { headers: { authorization: `Bearer ${token}` }, dispatcher });
      expect((await get("/readyz")).status).toBe(200);
      expect((await get("/api/v1/namespaces/default/serviceaccounts/default")).status).toBe(200);
      expect((await get("/api/v1/namespaces", "not-the-token")).status).toBe(401);
      const version = (await (await get("/version")).json()) as { gitVersion: string };
      expect(version.gitVersion).toMatch(/^v1\.\d+/);
      await dispatcher.close();
      for (const pid of pids) expect(isProcessAlive(pid), `process ${pid}`).toBe(true);
    } finally {
      await plane.stop();
    }
    for (const pid of pids) expect(isProcessAlive(pid), `process ${pid} after stop()`).toBe(false);
    expect(existsSync(plane.scratchDir)).toBe(false);
  });
});
