/**
 * Where the binaries of a real control plane are: a directory in envtest's `KUBEBUILDER_ASSETS`
 * convention (`etcd` and `kube-apiserver`, optionally `kube-controller-manager`), as unpacked from
 * a release or by `setup-envtest use 1.26.x -p path`.
 */
import { accessSync, constants, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** A control plane that cannot be started: the CLI prints the message (one line, then any log tail) and exits 2. */
export class ControlPlaneError extends Error {}

/** The binaries found in an assets directory. */
export interface KubeAssets {
  readonly dir: string;
  readonly etcd: string;
  readonly kubeApiserver: string;
  /** Absent when the directory has none: then namespaces are never finalized and no ServiceAccount is made. */
  readonly kubeControllerManager: string | undefined;
}

/** The environment variable envtest reads the assets directory from. */
export const ASSETS_ENVIRONMENT_VARIABLE = "KUBEBUILDER_ASSETS";

/** The binaries in `dir`; throws ControlPlaneError naming the first required one that is missing or not executable. */
export function findKubeAssets(dir: string): KubeAssets {
  const absolute = resolve(dir);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) throw new ControlPlaneError(`kube assets directory ${absolute} does not exist (it should hold etcd and kube-apiserver, as envtest's ${ASSETS_ENVIRONMENT_VARIABLE})`);
  const required = (name: string) => {
    const path = join(absolute, name);
    const problem = executableProblem(path);
    if (problem !== undefined) throw new ControlPlaneError(`${name} ${problem} in ${absolute} (expected an executable ${path})`);
    return path;
  };
  const controllerManager = join(absolute, "kube-controller-manager");
  return {
    dir: absolute,
    etcd: required("etcd"),
    kubeApiserver: required("kube-apiserver"),
    kubeControllerManager: executableProblem(controllerManager) === undefined ? controllerManager : undefined,
  };
}

function executableProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return "is not a file";
  } catch {
    return "is missing";
  }
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return "is not executable (chmod +x it; compressed .xz files must be unpacked first)";
  }
  return undefined;
}
