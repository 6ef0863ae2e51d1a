import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { imagePatternError, matchImagePattern, normalizeImage, parseSchemelessUrl, SchemelessUrlError, splitHostPort } from "./image-matching.ts";

const matches = (pattern: string, image: string) => matchImagePattern(pattern, image).matched;

describe("matchImagePattern: the kubelet's cases", () => {
  it("matches globs as whole subdomains, top-level domains and partial subdomains, one segment each", () => {
    expect(matches("*.kubernetes.io", "prefix.kubernetes.io")).toBe(true);
    expect(matches("*.kubernetes.io", "kubernetes.io")).toBe(false);
    expect(matches("*.kubernetes.io", "a.b.kubernetes.io")).toBe(false);
    expect(matches("*.*.kubernetes.io", "a.b.kubernetes.io")).toBe(true);
    expect(matches("prefix.*.io", "prefix.kubernetes.io")).toBe(true);
    expect(matches("registry.example.*", "registry.example.io")).toBe(true);
    expect(matches("*-good.kubernetes.io", "prefix-good.kubernetes.io")).toBe(true);
    expect(matches("*-good.kubernetes.io", "prefix-bad.kubernetes.io")).toBe(false);
    expect(matches("*.kubernetes.io", "prefix.k8s.io")).toBe(false);
  });

  it("compares ports exactly and paths as string prefixes", () => {
    expect(matches("prefix.kubernetes.io:8080", "prefix.kubernetes.io:8080/app")).toBe(true);
    expect(matches("prefix.kubernetes.io:8080", "prefix.kubernetes.io/app")).toBe(false);
    expect(matches("prefix.kubernetes.io", "prefix.kubernetes.io:8080/app")).toBe(false);
    expect(matches("*.kubernetes.io/foo", "prefix.kubernetes.io/foo/bar")).toBe(true);
    expect(matches("*.kubernetes.io/foo", "prefix.kubernetes.io/bar")).toBe(false);
    // As the kubelet checks it: a string prefix, so /foo also covers /foobar.
    expect(matches("kubernetes.io/foo", "kubernetes.io/foobar")).toBe(true);
  });

  it("says why a pattern does not match", () => {
    expect(matchImagePattern("*.gcr.io", "docker.io/library/nginx")).toEqual({ matched: false, reason: "3 domain segments ≠ 2" });
    expect(matchImagePattern("a.io:5000", "a.io")).toEqual({ matched: false, reason: "port 5000 ≠ (none)" });
  });
});

describe("patterns and images as the kubelet reads them", () => {
  it("reads a pattern as Go's url.Parse of https:// + pattern", () => {
    expect(parseSchemelessUrl("registry.io:5000/a/b")).toEqual({ host: "registry.io:5000", path: "/a/b" });
    expect(parseSchemelessUrl("*.io")).toEqual({ host: "*.io", path: "" });
    expect(() => parseSchemelessUrl("registry.io:port")).toThrow('invalid port ":port" after host');
    expect(() => parseSchemelessUrl("bad host.io")).toThrow('invalid character " " in host name');
    expect(() => parseSchemelessUrl("[a-z].io")).toThrow(SchemelessUrlError);
    expect(splitHostPort("[::1]:5000")).toEqual({ host: "::1", port: "5000" });
    expect(splitHostPort("a.io")).toEqual({ host: "a.io", port: "" });
  });

  it("rejects malformed globs and URLs as match-image errors", () => {
    expect(imagePatternError("*.example.io")).toBeUndefined();
    expect(imagePatternError("reg[.example.io")).toBe("syntax error in pattern");
    expect(imagePatternError("example.io:x")).toContain("invalid port");
  });

  it("normalizes an image as the kubelet looks it up", () => {
    expect(normalizeImage("nginx")).toEqual({ repository: "docker.io/library/nginx" });
    expect(normalizeImage("team/app:1.2")).toEqual({ repository: "docker.io/team/app", tag: "1.2" });
    expect(normalizeImage("registry.example.io/team/app:1")).toEqual({ repository: "registry.example.io/team/app", tag: "1" });
    expect(normalizeImage("localhost:5000/app")).toEqual({ repository: "localhost:5000/app" });
    expect(normalizeImage("index.docker.io/library/busybox")).toEqual({ repository: "docker.io/library/busybox" });
    const digest = `sha256:${"a".repeat(64)}`;
    expect(normalizeImage(`r.io/app@${digest}`)).toEqual({ repository: "r.io/app", digest });
    for (const image of ["", "App", "r.io/App", "app:", "a b"]) expect(() => normalizeImage(image), image).toThrow(SchemelessUrlError);
  });
});

const segment = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
const host = fc.array(segment, { minLength: 1, maxLength: 4 });
const port = fc.option(fc.integer({ min: 1, max: 65535 }).map(String), { nil: undefined });
const path = fc.array(fc.stringMatching(/^[a-z0-9]{1,6}$/), { maxLength: 3 }).map((parts) => parts.map((part) => `/${part}`).join(""));
const url = (parts: readonly string[], portText: string | undefined, pathText: string) => `${parts.join(".")}${portText === undefined ? "" : `:${portText}`}${pathText}`;

describe("image matching (properties)", () => {
  it("a pattern without globs matches itself", () => {
    fc.assert(fc.property(host, port, path, (parts, portText, pathText) => matches(url(parts, portText, pathText), url(parts, portText, pathText))));
  });

  it("a glob matches exactly one segment: any segment in its place, never one with a dot", () => {
    fc.assert(
      fc.property(host, fc.nat(), segment, segment, fc.constantFrom("*", "PREFIX*", "*SUFFIX"), (parts, at, other, extra, glob) => {
        const index = at % parts.length;
        const replacement = glob === "*" ? other : glob === "PREFIX*" ? `${other}${extra}` : `${extra}${other}`;
        const pattern = parts.map((part, i) => (i !== index ? part : glob === "*" ? "*" : glob === "PREFIX*" ? `${other}*` : `*${other}`));
        const target = parts.map((part, i) => (i === index ? replacement : part));
        const spanning = parts.map((part, i) => (i === index ? `${replacement}.${extra}` : part));
        return matches(pattern.join("."), target.join(".")) && !matches(pattern.join("."), spanning.join("."));
      }),
    );
  });

  it("the port must match exactly", () => {
    fc.assert(
      fc.property(host, fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), (parts, patternPort, imagePort) => {
        const pattern = url(parts, String(patternPort), "");
        return matches(pattern, url(parts, String(imagePort), "/app")) === (patternPort === imagePort) && !matches(pattern, url(parts, undefined, "/app")) && !matches(url(parts, undefined, ""), url(parts, String(imagePort), ""));
      }),
    );
  });

  it("the path is a prefix match", () => {
    fc.assert(
      fc.property(host, path, path, (parts, patternPath, imagePath) => {
        const pattern = url(parts, undefined, patternPath);
        return matches(pattern, url(parts, undefined, patternPath + imagePath)) && matches(pattern, url(parts, undefined, imagePath)) === imagePath.startsWith(patternPath);
      }),
    );
  });
});
