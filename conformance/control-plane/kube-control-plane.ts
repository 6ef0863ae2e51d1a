/**
 * A real control plane started from binaries (issue #13): etcd, kube-apiserver and, when the
 * assets hold it, kube-controller-manager with the namespace, garbage collector and
 * service-account controllers, on free loopback ports, in a scratch directory of their own. The
 * flags are those verified on these machines (shared kube-assets README). `stop()` ends every
 * process and removes the directory; so do the process's exit, and, should the harness be killed
 * outright, a watchdog (orphan-watchdog.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, fetch } from "undici";
import { makeControlPlaneCredentials, writeAdminKubeconfig, type ControlPlaneCredentials } from "./control-plane-credentials.ts";
import { freeLoopbackPorts } from "./free-port.ts";
import { ControlPlaneError, findKubeAssets, type KubeAssets } from "./kube-assets.ts";
import { KUBE_PROFILES, type KubeProfile, type KubeProfileName } from "./kube-profiles.ts";
import { ManagedProcess } from "./managed-process.ts";
import { startOrphanWatchdog } from "./orphan-watchdog.ts";
import { waitUntilReady } from "./wait-until-ready.ts";

/** How long each server may take to become ready (kube-apiserver takes 5–15 s here). */
const READY_TIMEOUT_MS = 90_000;

/** What to start. */
export interface KubeControlPlaneOptions {
  /** etcd and kube-apiserver, optionally kube-controller-manager (envtest's KUBEBUILDER_ASSETS layout). */
  readonly assetsDir: string;
  readonly profile?: KubeProfileName;
  /** Flags added to kube-apiserver's command line after the profile's (feature gates, runtime config). */
  readonly extraApiserverFlags?: readonly string[];
  /** Told each step ("starting etcd", "waiting for kube-apiserver (4 s)"), for a progress line. */
  readonly onProgress?: (line: string) => void;
  /** Aborting stops a start in progress: what was started is stopped and removed. */
  readonly signal?: AbortSignal;
}

/** A running control plane. */
export interface KubeControlPlane {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** A bearer token of a user in `system:masters`. */
  readonly adminToken: string;
  /** The serving certificate in PEM, to verify the server with. */
  readonly certificateAuthorityPem: string;
  /** The same in a file (valid until `stop()`), for clients that take a path (kubectl --certificate-authority). */
  readonly certificateAuthorityFile: string;
  /** A kubeconfig for the admin (kubectl --kubeconfig), valid until `stop()`. */
  readonly kubeconfigFile: string;
  readonly profile: KubeProfile;
  /** Whether the controller manager runs (namespaces finalized, default ServiceAccounts made). */
  readonly controllerManager: boolean;
  /** The scratch directory holding data, keys and logs; removed by `stop()`. */
  readonly scratchDir: string;
  /** Stops every process (SIGTERM, then SIGKILL) and removes the scratch directory. Idempotent. */
  stop(): Promise<void>;
}

/** Starts a control plane and resolves once it is ready; throws ControlPlaneError when it cannot. */
export async function startKubeControlPlane(options: KubeControlPlaneOptions): Promise<KubeControlPlane> {
  const assets = findKubeAssets(options.assetsDir);
  const profile = KUBE_PROFILES[options.profile ?? "default"];
  const scratchDir = mkdtempSync(join(tmpdir(), "orb-kube-"));
  const processes: ManagedProcess[] = [];
  const stopWatchdog = startOrphanWatchdog(scratchDir);
  const killOnExit = () => {
    for (const process of processes) process.killNow();
    rmSync(scratchDir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      process.removeListener("exit", killOnExit);
      for (const started of [...processes].reverse()) await started.stop();
      stopWatchdog();
      rmSync(scratchDir, { recursive: true, force: true });
    })());
  try {
    const started = await startProcesses(assets, profile, scratchDir, processes, options);
    return { ...started, profile, controllerManager: assets.kubeControllerManager !== undefined, scratchDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

type Started = Pick<KubeControlPlane, "url" | "adminToken" | "certificateAuthorityPem" | "certificateAuthorityFile" | "kubeconfigFile">;

async function startProcesses(assets: KubeAssets, profile: KubeProfile, dir: string, processes: ManagedProcess[], options: KubeControlPlaneOptions): Promise<Started> {
  const progress = options.onProgress ?? (() => undefined);
  const spawnServer = (name: string, binary: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
    const started = new ManagedProcess(name, binary, args, join(dir, `${name}.log`), env);
    processes.push(started);
    if (started.pid !== undefined) writeFileSync(join(dir, `${name}.pid`), String(started.pid));
    return started;
  };
  const credentials = await makeControlPlaneCredentials(dir);
  const { etcdClientPort, etcdPeerPort, apiserverPort, controllerManagerPort } = await freeLoopbackPorts(["etcdClientPort", "etcdPeerPort", "apiserverPort", "controllerManagerPort"]);

  progress("starting etcd");
  const etcdUrl = `http://127.0.0.1:${etcdClientPort}`;
  const etcd = spawnServer("etcd", assets.etcd, etcdArgs(dir, etcdClientPort, etcdPeerPort), withoutEtcdVariables(process.env));
  await waitUntilReady({
    what: "etcd to answer /health",
    probe: async () => (await fetch(`${etcdUrl}/health`)).status === 200,
    timeoutMs: READY_TIMEOUT_MS,
    watched: [etcd],
    onWaiting: (s) => progress(`waiting for etcd (${s} s)`),
    signal: options.signal,
  });

  progress(`starting kube-apiserver (profile ${profile.name})`);
  const url = `https://127.0.0.1:${apiserverPort}`;
  const apiserver = spawnServer("kube-apiserver", assets.kubeApiserver, [...apiserverArgs(dir, etcdUrl, apiserverPort, credentials), ...profile.apiserverFlags, ...(options.extraApiserverFlags ?? [])]);
  const agent = new Agent({ connect: { ca: credentials.servingCertificatePem } });
  const asAdmin = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${credentials.adminToken}` }, dispatcher: agent });
  await waitUntilReady({
    what: "kube-apiserver to answer /readyz",
    probe: async () => (await asAdmin("/readyz")).status === 200,
    timeoutMs: READY_TIMEOUT_MS,
    watched: [etcd, apiserver],
    onWaiting: (s) => progress(`waiting for kube-apiserver to be ready (${s} s)`),
    signal: options.signal,
  });

  const kubeconfigFile = join(dir, "admin.kubeconfig");
  writeAdminKubeconfig(kubeconfigFile, url, credentials);
  if (assets.kubeControllerManager !== undefined) {
    progress("starting kube-controller-manager");
    const controllerManager = spawnServer("kube-controller-manager", assets.kubeControllerManager, controllerManagerArgs(dir, kubeconfigFile, controllerManagerPort, credentials));
    // Its service-account controller is running once the default namespace has its ServiceAccount.
    await waitUntilReady({
      what: "kube-controller-manager to create the default ServiceAccount",
      probe: async () => (await asAdmin("/api/v1/namespaces/default/serviceaccounts/default")).status === 200,
      timeoutMs: READY_TIMEOUT_MS,
      watched: [etcd, apiserver, controllerManager],
      onWaiting: (s) => progress(`waiting for kube-controller-manager (${s} s)`),
      signal: options.signal,
    });
  }
  await agent.close();
  return {
    url,
    adminToken: credentials.adminToken,
    certificateAuthorityPem: credentials.servingCertificatePem,
    certificateAuthorityFile: credentials.servingCertificateFile,
    kubeconfigFile,
  };
}

function etcdArgs(dir: string, clientPort: number, peerPort: number): string[] {
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  return [
    "--name=orb",
    `--data-dir=${join(dir, "etcd-data")}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=orb=${peer}`,
    "--initial-cluster-state=new",
    "--log-level=warn",
  ];
}

function apiserverArgs(dir: string, etcdUrl: string, port: number, credentials: ControlPlaneCredentials): string[] {
  const certDir = join(dir, "apiserver-certs");
  mkdirSync(certDir);
  return [
    `--etcd-servers=${etcdUrl}`,
    "--bind-address=127.0.0.1",
    `--secure-port=${port}`,
    "--advertise-address=127.0.0.1",
    `--tls-cert-file=${credentials.servingCertificateFile}`,
    `--tls-private-key-file=${credentials.servingKeyFile}`,
    `--cert-dir=${certDir}`,
    "--authorization-mode=RBAC",
    `--token-auth-file=${credentials.tokenFile}`,
    "--service-cluster-ip-range=10.0.0.0/24",
    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
    `--service-account-key-file=${credentials.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${credentials.serviceAccountPrivateKeyFile}`,
    // The default reconciler refuses to record a 127.0.0.1 endpoint for the kubernetes Service.
    "--endpoint-reconciler-type=none",
    "--profiling=false",
    // Any CA will do: without these the controller manager's delegated authentication logs errors.
    `--client-ca-file=${credentials.servingCertificateFile}`,
    `--requestheader-client-ca-file=${credentials.servingCertificateFile}`,
    "--requestheader-allowed-names=front-proxy-client",
    "--requestheader-username-headers=X-Remote-User",
    "--requestheader-group-headers=X-Remote-Group",
    "--requestheader-extra-headers-prefix=X-Remote-Extra-",
  ];
}

function controllerManagerArgs(dir: string, kubeconfig: string, port: number, credentials: ControlPlaneCredentials): string[] {
  const certDir = join(dir, "controller-manager-certs");
  mkdirSync(certDir);
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    "--bind-address=127.0.0.1",
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    "--controllers=namespace,garbagecollector,serviceaccount,serviceaccount-token",
    `--service-account-private-key-file=${credentials.serviceAccountPrivateKeyFile}`,
    `--root-ca-file=${credentials.servingCertificateFile}`,
    "--leader-elect=false",
    "--profiling=false",
  ];
}

/** etcd reads ETCD_* variables as flags: an inherited one would change what we asked for. */
function withoutEtcdVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("ETCD_")));
}

export { ControlPlaneError };
