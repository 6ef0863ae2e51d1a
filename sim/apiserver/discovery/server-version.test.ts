import { describe, expect, it } from "vitest";
import { dialectByName, dialects } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { goPlatform, serverVersion } from "./server-version.ts";

const kubernetes = dialectByName("kubernetes");
const transcripts = loadReferenceTranscripts();
const build = { platform: "linux/amd64" };

// k8s.io/apimachinery version.ParseSemantic's pattern: what kubectl's skew check parses.
const SEMANTIC = /^v?([0-9]+)\.([0-9]+)\.([0-9]+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/;

describe("GET /version", () => {
  it("reports 1.26 with a gitVersion kubectl parses as 1.26.4 (build metadata, not a pre-release)", () => {
    const info = serverVersion(kubernetes, build);
    expect([info.major, info.minor]).toEqual(["1", "26"]);
    const match = SEMANTIC.exec(info.gitVersion);
    expect(match?.slice(1, 4)).toEqual(["1", "26", "4"]);
    expect(match?.[4]).toBeUndefined();
    expect(match?.[5]).toBe("orb-harness");
  });

  it("takes platform and build facts from the caller, with the transcript's defaults otherwise", () => {
    expect(serverVersion(kubernetes, build)).toMatchObject({ gitCommit: "", gitTreeState: "", buildDate: "1970-01-01T00:00:00Z", platform: "linux/amd64" });
    const given = serverVersion(kubernetes, { platform: "darwin/arm64", gitCommit: "eab9ddf", gitTreeState: "dirty", buildDate: "2026-01-02T03:04:05Z", goVersion: "node v20.20.2" });
    expect(given).toMatchObject({ platform: "darwin/arm64", gitCommit: "eab9ddf", gitTreeState: "dirty", buildDate: "2026-01-02T03:04:05Z", goVersion: "node v20.20.2" });
  });

  it("reports the same release in both dialects", () => {
    const [first, ...rest] = dialects.map((dialect) => serverVersion(dialect, build));
    for (const other of rest) expect(other).toEqual(first);
  });

  it("has the transcript's fields, in its order, and its release numbers", () => {
    const reference = transcriptJson(transcriptById(transcripts, "version")) as Record<string, string>;
    const ours = serverVersion(kubernetes, build);
    expect(Object.keys(ours)).toEqual(Object.keys(reference));
    expect(Object.values(ours).every((value) => typeof value === "string")).toBe(true);
    expect([ours.major, ours.minor, ours.buildDate, ours.platform]).toEqual([reference["major"], reference["minor"], reference["buildDate"], reference["platform"]]);
    expect(ours.gitVersion.startsWith(`${reference["gitVersion"]}+`)).toBe(true);
  });
});

describe("goPlatform", () => {
  it("spells Node's platform and arch as Go does", () => {
    expect(goPlatform("linux", "x64")).toBe("linux/amd64");
    expect(goPlatform("darwin", "arm64")).toBe("darwin/arm64");
    expect(goPlatform("win32", "ia32")).toBe("windows/386");
    expect(goPlatform("freebsd", "s390x")).toBe("freebsd/s390x");
  });
});
