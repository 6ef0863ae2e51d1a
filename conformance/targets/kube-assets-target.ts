/**
 * A real control plane the harness starts from binaries (`--kube-assets DIR`, issue #13) as a
 * target: reached like any remote server, with what the harness knows because it started it (the
 * profile's compaction interval, so time-dependent cases wait toward the server's own retention),
 * and stopped with the target.
 */
import { startKubeControlPlane } from "../control-plane/kube-control-plane.ts";
import type { KubeProfileName } from "../control-plane/kube-profiles.ts";
import { retentionOfCompactionInterval } from "../retention.ts";
import { connectRemoteTarget } from "./remote-target.ts";
import type { Target } from "./target.ts";

/** What to start. */
export interface KubeAssetsTargetOptions {
  readonly assetsDir: string;
  readonly profile: KubeProfileName;
  /** The second identity's token, if the user gave one; else the suite impersonates one. */
  readonly restrictedToken?: string;
  readonly onProgress?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/** Starts the control plane and connects to it as its admin; closing the target stops it. */
export async function startKubeAssetsTarget(options: KubeAssetsTargetOptions): Promise<Target> {
  const plane = await startKubeControlPlane({
    assetsDir: options.assetsDir,
    profile: options.profile,
    ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  try {
    const remote = await connectRemoteTarget({
      server: plane.url,
      credentials: { token: plane.adminToken, certificateAuthority: plane.certificateAuthorityFile },
      dialect: "kubernetes",
      ...(options.restrictedToken !== undefined && { restricted: { token: options.restrictedToken } }),
    });
    return {
      ...remote,
      kind: "kube-assets",
      retention: retentionOfCompactionInterval(plane.profile.compactionIntervalMs, "kube-profile"),
      async close() {
        await remote.close();
        await plane.stop();
      },
    };
  } catch (error) {
    await plane.stop();
    throw error;
  }
}
