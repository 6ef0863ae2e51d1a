/**
 * The server a soak runs against: the embedded one (embedded-soak-server.ts), or any target the
 * conformance suite reaches (`--server`, `--kubeconfig`, `--kube-assets`), through its identity.
 */
import { openTarget, type TargetChoice } from "../run-conformance.ts";
import type { Target } from "../targets/target.ts";
import { startEmbeddedSoakServer, type EmbeddedSoakServerOptions } from "./embedded-soak-server.ts";

/** What the soak needs of a server. */
export interface SoakTarget {
  readonly kind: Target["kind"];
  readonly url: string;
  /** What the history and the reports call the target: never a credential. */
  readonly description: string;
  readonly serverVersion: string;
  readonly identity: Target["identity"];
  /** Strings no output may show (tokens, keys). */
  readonly secrets: readonly string[];
  /** Stops what was started for the run (the embedded server, a control plane). */
  close(): Promise<void>;
}

/** Where to soak: the embedded server (with its options), or a conformance target other than the embedded one. */
export type SoakTargetChoice =
  | ({ readonly kind: "embedded" } & EmbeddedSoakServerOptions)
  | Exclude<TargetChoice, { readonly kind: "embedded" }>;

/** Starts or reaches the target; throws TargetError or ControlPlaneError when it cannot be used. */
export async function openSoakTarget(choice: SoakTargetChoice): Promise<SoakTarget> {
  if (choice.kind === "embedded") return startEmbeddedSoakServer(choice);
  const target = await openTarget(choice);
  const started = choice.kind === "kube-assets" ? ` (started from binaries, profile ${choice.profile})` : "";
  return {
    kind: target.kind,
    url: target.url,
    description: `${target.url}${started}`,
    serverVersion: target.serverVersion,
    identity: target.identity,
    secrets: target.secrets,
    close: () => target.close(),
  };
}
