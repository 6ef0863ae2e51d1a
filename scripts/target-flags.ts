/**
 * The flags that choose a server to run against, shared by the commands that take any target
 * (conformance, soak): the embedded server by default, `--server URL` with a token and
 * certificates, `--kubeconfig`, or `--kube-assets DIR` (a control plane started from binaries).
 * Wiring only: the targets themselves are in conformance/targets/.
 */
import type { TargetChoice } from "../conformance/run-conformance.ts";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../conformance/control-plane/kube-assets.ts";
import { kubeProfileByName, KUBE_PROFILES } from "../conformance/control-plane/kube-profiles.ts";
import type { Credentials } from "../conformance/targets/remote-target.ts";
import { durationFlagMs } from "./duration-flag.ts";
import { UsageError } from "./cli-command.ts";
import { flagNames, isOneOf, type FlagSpec, type FlagValues } from "./parse-flags.ts";

/** The flags on how to reach and trust a server, as parseFlags declares them. */
export const TARGET_FLAGS = {
  server: "string",
  token: "string",
  "certificate-authority": "string",
  "client-certificate": "string",
  "client-key": "string",
  "insecure-skip-tls-verify": "boolean",
  kubeconfig: "string",
  context: "string",
  "kube-assets": "string",
  "kube-profile": "string",
} as const satisfies FlagSpec;

/**
 * The flags only `conformance` takes besides TARGET_FLAGS: the dialect to expect, a second
 * identity for authorization cases, and the server's compaction interval.
 */
export const CONFORMANCE_TARGET_FLAGS = {
  dialect: "string",
  "restricted-token": "string",
  "restricted-kubeconfig": "string",
  "restricted-context": "string",
  "server-compaction-interval": "string",
} as const satisfies FlagSpec;

/** The flags on how to reach and trust a server, and the targets that read each. */
const CONNECTION_FLAG_TARGETS = {
  token: "--server (a kubeconfig holds its own credentials)",
  "certificate-authority": "--server (a kubeconfig holds its own)",
  "client-certificate": "--server (a kubeconfig holds its own credentials)",
  "client-key": "--server (a kubeconfig holds its own credentials)",
  "insecure-skip-tls-verify": "--server or --kubeconfig",
  context: "--kubeconfig",
} as const satisfies Partial<Record<keyof typeof TARGET_FLAGS, string>>;
type ConnectionFlag = keyof typeof CONNECTION_FLAG_TARGETS;
const CONNECTION_FLAGS: readonly ConnectionFlag[] = ["token", "certificate-authority", "client-certificate", "client-key", "insecure-skip-tls-verify"];
const DIALECTS = ["orb", "kubernetes", "auto"] as const;

/** No flags of CONFORMANCE_TARGET_FLAGS: what the commands that do not take them read. */
const NONE_GIVEN: FlagValues<typeof CONFORMANCE_TARGET_FLAGS> = { get: () => undefined, has: () => false };

/**
 * The target the flags choose: the embedded server (no target flag), `--server` with its
 * credentials, `--kubeconfig`, or `--kube-assets` (a control plane started from binaries). A flag
 * the chosen target would not read is a UsageError, so nobody believes a --token or an
 * --insecure-skip-tls-verify applies when it does not. `conformance` passes its own flags a
 * second time as `conformanceFlags`; the other commands (soak, fuzz) take none of them, so they
 * read as absent (no second identity, no --dialect).
 */
export function targetChoice(flags: FlagValues<typeof TARGET_FLAGS>, conformanceFlags: FlagValues<typeof CONFORMANCE_TARGET_FLAGS> = NONE_GIVEN): TargetChoice {
  const dialect = conformanceFlags.get("dialect");
  if (dialect !== undefined && !isOneOf(DIALECTS, dialect)) throw new UsageError(`--dialect must be orb, kubernetes or auto, got ${dialect}`);
  const server = flags.get("server");
  const kubeconfig = flags.get("kubeconfig");
  if (server !== undefined && kubeconfig !== undefined) throw new UsageError("give --server or --kubeconfig, not both");
  if ((flags.get("client-certificate") === undefined) !== (flags.get("client-key") === undefined)) {
    throw new UsageError("--client-certificate and --client-key go together");
  }
  // A connection flag the chosen target does not read would be ignored while the user believes it
  // applies (an --insecure-skip-tls-verify or a --token that does nothing): refused instead.
  const applies: readonly ConnectionFlag[] = server !== undefined ? CONNECTION_FLAGS : kubeconfig !== undefined ? ["insecure-skip-tls-verify", "context"] : [];
  for (const flag of flagNames(CONNECTION_FLAG_TARGETS)) {
    if (flags.has(flag) && !applies.includes(flag)) throw new UsageError(`--${flag} goes with ${CONNECTION_FLAG_TARGETS[flag]}`);
  }
  const restrictedToken = conformanceFlags.get("restricted-token");
  const restrictedKubeconfig = conformanceFlags.get("restricted-kubeconfig");
  const restrictedContext = conformanceFlags.get("restricted-context");
  if (restrictedToken !== undefined && restrictedKubeconfig !== undefined) throw new UsageError("give --restricted-token or --restricted-kubeconfig, not both");
  if (restrictedContext !== undefined && restrictedKubeconfig === undefined) throw new UsageError("--restricted-context selects a context of --restricted-kubeconfig, which is missing");
  const compactionText = conformanceFlags.get("server-compaction-interval");
  const compactionIntervalMs = compactionText === undefined ? undefined : durationFlagMs(compactionText, "server-compaction-interval");
  const kubeAssets = flags.get("kube-assets");
  const kubeProfileText = flags.get("kube-profile");
  const kubeProfile = kubeProfileText === undefined ? undefined : kubeProfileByName(kubeProfileText);
  if (kubeProfileText !== undefined && kubeProfile === undefined) {
    throw new UsageError(`--kube-profile must be ${Object.keys(KUBE_PROFILES).join(" or ")}, got ${kubeProfileText}`);
  }
  if (kubeAssets !== undefined) {
    if (server !== undefined || kubeconfig !== undefined) throw new UsageError("give --kube-assets, --server or --kubeconfig, not two of them");
    if (dialect !== undefined && dialect !== "kubernetes" && dialect !== "auto") throw new UsageError(`a control plane started with --kube-assets speaks kubernetes, not ${dialect}`);
    if (restrictedKubeconfig !== undefined) throw new UsageError("with --kube-assets, a second identity is --restricted-token (or, by default, an impersonated ServiceAccount)");
    if (compactionIntervalMs !== undefined) throw new UsageError("--server-compaction-interval is for --server or --kubeconfig: with --kube-assets the profile sets it");
    return {
      kind: "kube-assets",
      assetsDir: kubeAssets,
      profile: kubeProfile?.name ?? "default",
      ...(restrictedToken !== undefined && { restrictedToken }),
    };
  }
  if (kubeProfile !== undefined) throw new UsageError(`--kube-profile needs --kube-assets DIR (or $${ASSETS_ENVIRONMENT_VARIABLE})`);
  if (server === undefined && kubeconfig === undefined) {
    if (compactionIntervalMs !== undefined) throw new UsageError("--server-compaction-interval needs --server or --kubeconfig: the embedded server's is known");
    if (dialect === "auto") throw new UsageError("--dialect auto needs --server or --kubeconfig; the embedded server speaks orb or kubernetes");
    if (restrictedToken !== undefined || restrictedKubeconfig !== undefined) throw new UsageError("a second identity needs --server or --kubeconfig");
    return { kind: "embedded", dialect: dialect ?? "orb" };
  }
  const restricted =
    restrictedToken !== undefined
      ? { restricted: { token: restrictedToken } }
      : restrictedKubeconfig !== undefined
        ? { restricted: { kubeconfig: restrictedKubeconfig, ...(restrictedContext !== undefined && { context: restrictedContext }) } }
        : {};
  const chosenDialect = dialect ?? "auto";
  const retention = compactionIntervalMs === undefined ? {} : { compactionIntervalMs };
  const insecure = flags.get("insecure-skip-tls-verify") === true ? { insecureSkipTlsVerify: true } : {};
  if (kubeconfig !== undefined) {
    const context = flags.get("context");
    return { kind: "remote", kubeconfig, ...(context !== undefined && { context }), ...insecure, dialect: chosenDialect, ...restricted, ...retention };
  }
  const token = flags.get("token");
  const certificateAuthority = flags.get("certificate-authority");
  const clientCertificate = flags.get("client-certificate");
  const clientKey = flags.get("client-key");
  const credentials: Credentials = {
    ...(token !== undefined && { token }),
    ...(certificateAuthority !== undefined && { certificateAuthority }),
    ...(clientCertificate !== undefined && clientKey !== undefined && { clientCertificate, clientKey }),
    ...insecure,
  };
  return { kind: "remote", server: server!, credentials, dialect: chosenDialect, ...restricted, ...retention };
}

/**
 * `--kube-assets` given no directory (last, or followed by another flag) takes envtest's
 * $KUBEBUILDER_ASSETS, as envtest users expect.
 */
export function withKubeAssetsDefault(args: readonly string[]): readonly string[] {
  return args.map((arg, index) => {
    if (arg !== "--kube-assets") return arg;
    const next = args[index + 1];
    if (next !== undefined && !next.startsWith("--")) return arg;
    const fromEnvironment = process.env[ASSETS_ENVIRONMENT_VARIABLE];
    if (fromEnvironment === undefined || fromEnvironment === "") {
      throw new UsageError(`--kube-assets needs a directory (etcd, kube-apiserver), or $${ASSETS_ENVIRONMENT_VARIABLE} set to one`);
    }
    return `--kube-assets=${fromEnvironment}`;
  });
}

