import { describe, expect, it } from "vitest";
import { checkValues } from "../../sim/config/schema-check.ts";
import { doc3Checks } from "../../sim/config/node-agent-checks.ts";
import type { FieldSchema } from "./config-schema.ts";
import { credentialProviderConfigSchema } from "./credential-provider-schema.ts";
import { nodeAgentFeatureGates } from "./feature-gates.ts";
import { nodeAgentApiVersion, nodeAgentConfigurationSchema } from "./node-agent-schema.ts";
import { doc3Rules } from "./rules.ts";

// Every schema node with its path.
function* nodes(schema: FieldSchema, path = ""): Generator<[string, FieldSchema]> {
  yield [path, schema];
  for (const [name, child] of Object.entries(schema.properties ?? {})) yield* nodes(child, path === "" ? name : `${path}.${name}`);
  if (typeof schema.additionalProperties === "object") yield* nodes(schema.additionalProperties, `${path}[*]`);
  if (schema.items !== undefined) yield* nodes(schema.items, `${path}[]`);
}

const schemas = [nodeAgentConfigurationSchema("orb"), nodeAgentConfigurationSchema("kubernetes"), credentialProviderConfigSchema("orb"), credentialProviderConfigSchema("kubernetes")];
const severityOf = (id: string) => doc3Rules.find((rule) => rule.id === id)?.severity ?? "error";

describe("doc 3 as JSON Schemas", () => {
  it("names the group and kind of each dialect", () => {
    expect(nodeAgentApiVersion("orb")).toBe("nodeagent.config.orb.io/v1beta1");
    expect(nodeAgentApiVersion("kubernetes")).toBe("kubelet.config.k8s.io/v1beta1");
    expect(nodeAgentConfigurationSchema("orb").properties!["kind"]!.const).toBe("NodeAgentConfiguration");
    expect(nodeAgentConfigurationSchema("kubernetes").properties!["kind"]!.const).toBe("KubeletConfiguration");
    expect(credentialProviderConfigSchema("kubernetes").properties!["kind"]!.const).toBe("CredentialProviderConfig");
  });

  it("lists every field of doc 3 §2.3 to §2.8 and §8 (104 top-level fields besides apiVersion and kind)", () => {
    const fields = Object.keys(nodeAgentConfigurationSchema("orb").properties!).filter((name) => name !== "apiVersion" && name !== "kind");
    expect(fields).toHaveLength(104);
    for (const name of ["readOnlyPort", "nodeStatusReportFrequency", "shutdownGracePeriodByPodPriority", "eventRecordQPS", "memoryThrottlingFactor", "logging", "reservedMemory"]) {
      expect(fields, name).toContain(name);
    }
  });

  it("every rule a schema node names exists, and every rule marked schema is named by a node", () => {
    const known = new Set(doc3Rules.map((rule) => rule.id));
    const named = new Set<string>();
    for (const schema of schemas) {
      for (const [path, node] of nodes(schema)) {
        for (const rule of [node["x-rule"], node["x-key-rule"]]) {
          if (rule === undefined) continue;
          expect(known.has(rule), `${path} names ${rule}`).toBe(true);
          named.add(rule);
        }
      }
    }
    const structural = new Set(["doc3/2/unknown-field", "doc3/2/field-type", "doc3/2/required-field"]);
    for (const [id, check] of Object.entries(doc3Checks)) {
      if (check === "schema" && !structural.has(id)) expect(named.has(id), `${id} is enforced by a schema node`).toBe(true);
    }
  });

  it("every rule has a check, and rule ids are unique and cite their clause", () => {
    const ids = doc3Rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(doc3Checks).sort()).toEqual([...ids].sort());
    for (const rule of doc3Rules) expect(rule.clause).toBe(`doc 3 §${rule.id.split("/")[1]}`);
  });

  it("every default satisfies its own field's schema", () => {
    for (const dialect of ["orb", "kubernetes"] as const) {
      for (const [path, node] of nodes(nodeAgentConfigurationSchema(dialect))) {
        if (node.default === undefined) continue;
        expect(checkValues(node.default, node, severityOf, path), `${dialect} ${path}`).toEqual([]);
      }
    }
  });

  it("keeps doc 3's defaults where it shows them and Kubernetes' where it does not", () => {
    const orb = nodeAgentConfigurationSchema("orb").properties!;
    expect(orb["nodeStatusReportFrequency"]!.default).toBe("5m");
    expect(orb["readOnlyPort"]!.default).toBe(0);
    expect(orb["contentType"]!.default).toBe("application/vnd.orb.protobuf");
    expect(orb["cpuManagerPolicy"]!.default).toBe("None");
    expect(orb["hairpinMode"]!["x-default-note"]).toMatch(/not shown in doc 3/);
    expect(nodeAgentConfigurationSchema("kubernetes").properties!["contentType"]!.default).toBe("application/vnd.kubernetes.protobuf");
  });

  it("lets featureGates name every gate doc 3's fields need", () => {
    const gates = Object.keys(nodeAgentConfigurationSchema("orb").properties!["featureGates"]!.properties!);
    expect(gates).toEqual(nodeAgentFeatureGates.map((gate) => gate.name));
    for (const name of ["CPUManager", "CPUManagerPolicyOptions", "MemoryManager", "TopologyManager", "QOSReserved", "RotateKubeletServerCertificate", "GracefulNodeShutdown"]) {
      expect(gates, name).toContain(name);
    }
  });
});
