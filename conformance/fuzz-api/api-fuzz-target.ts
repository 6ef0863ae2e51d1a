/**
 * The targets of `fuzz --target api`: the embedded server in virtual time (by default, with any
 * planted `--defect`s), or any server the conformance suite reaches (`--server`, `--kubeconfig`,
 * `--kube-assets`). The model is always the embedded server in virtual time without defects, in
 * the kubernetes dialect: the behaviour this project records from kube-apiserver.
 */
import { randomBytes } from "node:crypto";
import { dialectByName } from "../../spec/dialects.ts";
import { NO_DEFECTS, type DefectName } from "../../sim/apiserver/defects/defects.ts";
import { openTarget, type TargetChoice } from "../run-conformance.ts";
import { remoteFuzzServer, virtualFuzzServer, type FuzzServer } from "./fuzz-server.ts";
import { ROOT_CA_CONFIGMAP } from "./fuzz-side.ts";
import type { ApiFuzzTarget } from "./run-api-fuzz.ts";

const MODEL_DIALECT = dialectByName("kubernetes");

/** Where to fuzz: the embedded server (with planted defects), or a conformance target other than it. */
export type ApiFuzzTargetChoice = { readonly kind: "embedded"; readonly defects?: ReadonlySet<DefectName> } | Exclude<TargetChoice, { readonly kind: "embedded" }>;

/** Starts or reaches the target; throws TargetError or ControlPlaneError when it cannot be used. */
export async function openApiFuzzTarget(choice: ApiFuzzTargetChoice): Promise<ApiFuzzTarget & { readonly secrets: readonly string[] }> {
  if (choice.kind === "embedded") {
    const defects = choice.defects ?? NO_DEFECTS;
    return {
      description: `embedded (virtual time${defects.size > 0 ? `, planted defects: ${[...defects].join(", ")}` : ""})`,
      virtual: true,
      namespaceSuffix: "",
      secrets: [],
      servers: (namespace) => ({
        model: virtualFuzzServer(MODEL_DIALECT, `model-${namespace}`, NO_DEFECTS),
        target: virtualFuzzServer(MODEL_DIALECT, `target-${namespace}`, defects),
        targetNeedsRootCa: true,
        deleteNamespace: false,
      }),
      close: async () => [],
    };
  }
  const target = await openTarget(choice);
  const shared = remoteFuzzServer(target.identity, target.url);
  // kube-controller-manager publishes the root CA ConfigMap into every namespace; a server without
  // it (orb-harness serve) has none in `default` either, and the run publishes its own.
  const published = await shared.exchange("GET", `/api/v1/namespaces/default/configmaps/${ROOT_CA_CONFIGMAP}`, {});
  const made: string[] = [];
  const started = choice.kind === "kube-assets" ? ` (started from binaries, profile ${choice.profile})` : "";
  return {
    description: `${target.url}${started}`,
    virtual: false,
    // A real server may still be deleting an earlier campaign's namespaces of the same seeds.
    namespaceSuffix: `-${randomBytes(3).toString("hex")}`,
    secrets: target.secrets,
    servers: (namespace) => {
      made.push(namespace);
      return { model: virtualFuzzServer(MODEL_DIALECT, `model-${namespace}`, NO_DEFECTS), target: shared, targetNeedsRootCa: published.status !== 200, deleteNamespace: true };
    },
    async close() {
      try {
        return await namespacesLeft(shared, made);
      } finally {
        await target.close();
      }
    },
  };
}

/** How long a campaign waits at its end for the namespaces it deleted to be gone (a namespace controller empties them first). */
const NAMESPACES_GONE_WAIT_MS = 60_000;

/** The namespaces of `names` still there after waiting for them to go. */
async function namespacesLeft(server: FuzzServer, names: readonly string[]): Promise<string[]> {
  const deadline = performance.now() + NAMESPACES_GONE_WAIT_MS;
  let left = [...names];
  while (left.length > 0) {
    const answers = await Promise.all(left.map((name) => server.exchange("GET", `/api/v1/namespaces/${name}`, {}).catch(() => undefined)));
    left = left.filter((_, index) => answers[index]?.status !== 404);
    if (left.length === 0 || performance.now() > deadline) break;
    await server.pause(500);
  }
  return left;
}
