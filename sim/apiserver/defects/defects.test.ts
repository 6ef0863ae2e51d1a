/**
 * The planted defects (defects.ts): each is planted somewhere, marked; every marker names one of
 * the catalog; none is planted unless asked for; an unknown name is refused. Whether the suite
 * catches each one is conformance/defects.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defects, isDefectName, type DefectName } from "./defects.ts";
import { testServer } from "../test-server.ts";

// The server's root, sim/apiserver (this file is in its defects/ folder).
const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const MARKER = /Planted defect "([^"]+)" \(sim\/apiserver\/defects\/defects\.ts\)/g;

/** The server's source files (tests left out), relative to sim/apiserver. */
function sourceFiles(dir = HERE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".bench.ts") ? [full] : [];
  });
}

describe("planted defects", () => {
  it("are each planted at a marked place, and every marker names a defect of the catalog", () => {
    const planted = new Map<string, string[]>();
    // defects.ts itself shows the marker's form in its header. Two concurrency defects also live
    // partly in the store (sim/store/mvcc-store.ts); their markers there must name the catalog too.
    const files = [...sourceFiles(), ...sourceFiles(path.join(HERE, "../store"))];
    for (const file of files.filter((file) => path.basename(file) !== "defects.ts")) {
      for (const match of readFileSync(file, "utf8").matchAll(MARKER)) {
        const name = match[1]!;
        planted.set(name, [...(planted.get(name) ?? []), path.relative(HERE, file)]);
      }
    }
    expect([...planted.keys()].filter((name) => !isDefectName(name))).toEqual([]);
    expect(defects.map((defect) => defect.name).filter((name) => !planted.has(name))).toEqual([]);
  });

  it("are off unless asked for", async () => {
    const clean = testServer("orb");
    const planted = testServer("orb", { defects: new Set<DefectName>(["protobuf-wrong-prefix"]) });
    for (const server of [clean, planted]) {
      await server.call("POST", "/api/v1/namespaces/default/configmaps", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } });
    }
    const prefix = async (server: typeof clean) => {
      const response = await server.server.handle(
        new Request("http://test.local/api/v1/namespaces/default/configmaps/a", { headers: { accept: server.server.dialect.protobufMediaType } }),
      );
      return [...new Uint8Array(await response.arrayBuffer()).subarray(0, 4)];
    };
    expect(await prefix(clean)).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(await prefix(planted)).toEqual([0x6b, 0x38, 0x73, 0x01]);
  });

  it("refuse a name the catalog does not have", () => {
    expect(() => testServer("orb", { defects: new Set(["no-such-defect" as DefectName]) })).toThrow(/unknown defect "no-such-defect"/);
  });
});
