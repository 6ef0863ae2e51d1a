/**
 * The `/version` document (Kubernetes behaviour; doc 1 §9 shows no version endpoint, see gap
 * doc1/9/not-shown). Same fields, in the same order, as the reference transcript `version`.
 *
 * Pure: nothing here reads the wall clock, the host or the process; whatever describes the build
 * or the machine (platform, commit, build date, runtime) comes from the caller.
 */
import type { Dialect } from "../../../spec/dialects.ts";

/** The body of `GET /version` (Kubernetes' version.Info), fields in the server's order. */
export interface VersionInfo {
  readonly major: string;
  readonly minor: string;
  readonly gitVersion: string;
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
  readonly goVersion: string;
  readonly compiler: string;
  readonly platform: string;
}

/** What the caller knows about this build and the machine it runs on. */
export interface BuildInfo {
  /** `<os>/<arch>` in Go's spelling, e.g. "linux/amd64" (see `goPlatform`). */
  readonly platform: string;
  /** The harness's own commit, when the caller knows it; default "". */
  readonly gitCommit?: string;
  /** "clean", "dirty", or "" when unknown (the default, as in the transcript). */
  readonly gitTreeState?: "" | "clean" | "dirty";
  /** RFC 3339 build time; default the Unix epoch, which is what the reference server reports. */
  readonly buildDate?: string;
  /** The runtime that runs the server, e.g. "node v20.20.2"; default "". The field's name says Go; ours is not Go. */
  readonly goVersion?: string;
}

/** The Kubernetes release the `kubernetes` dialect answers as (the reference transcripts' server). */
export const KUBERNETES_RELEASE = { major: 1, minor: 26, patch: 4 } as const;

/**
 * The build metadata appended to gitVersion. Semantic versioning ignores build metadata when
 * comparing (semver §10), so `v1.26.4+orb-harness` still parses as 1.26.4 for kubectl's version
 * skew check (k8s.io/apimachinery version.ParseSemantic), while telling a reader plainly that
 * this is not a kube-apiserver build. A pre-release suffix (`v1.26.4-orb`) would sort *before*
 * 1.26.4 and a bare `v1.26.4` would claim to be Kubernetes' own build; distributions use `+` the
 * same way (`v1.26.4+k3s1`).
 */
const BUILD_METADATA = "orb-harness";

/** The gitVersion both dialects report: `v1.26.4+orb-harness`. */
export const GIT_VERSION = `v${KUBERNETES_RELEASE.major}.${KUBERNETES_RELEASE.minor}.${KUBERNETES_RELEASE.patch}+${BUILD_METADATA}`;

/**
 * `GET /version` (Kubernetes behaviour). Both dialects report the same release: doc 1 §9 dates its
 * features by Kubernetes releases ("since v1.24"), so the documents describe the same line.
 */
export function serverVersion(_dialect: Dialect, build: BuildInfo): VersionInfo {
  // The dialect changes names, not the release; the parameter keeps /version like the other
  // per-dialect documents for the handler.
  return {
    major: String(KUBERNETES_RELEASE.major),
    minor: String(KUBERNETES_RELEASE.minor),
    gitVersion: GIT_VERSION,
    gitCommit: build.gitCommit ?? "",
    gitTreeState: build.gitTreeState ?? "",
    buildDate: build.buildDate ?? "1970-01-01T00:00:00Z",
    goVersion: build.goVersion ?? "",
    // Go's runtime.Compiler ("gc", "gccgo"); no Go compiler built this server.
    compiler: "",
    platform: build.platform,
  };
}

const GO_OS: Readonly<Record<string, string>> = { win32: "windows", sunos: "solaris" };
const GO_ARCH: Readonly<Record<string, string>> = { x64: "amd64", ia32: "386", mipsel: "mipsle" };

/** Node's `process.platform`/`process.arch` spelled as Go's GOOS/GOARCH ("linux", "x64" → "linux/amd64"); the caller passes them in. */
export function goPlatform(os: string, arch: string): string {
  return `${GO_OS[os] ?? os}/${GO_ARCH[arch] ?? arch}`;
}
