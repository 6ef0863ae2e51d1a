import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Doc3RuleId } from "../../spec/doc3/rules.ts";
import { formatFinding } from "./finding.ts";
import { generateValidCredentialProviderConfig } from "./generate-config.ts";
import { doc3Checks } from "./node-agent-checks.ts";
import { formatImageMatchReport, matchProviders } from "./provider-matching.ts";
import { validateCredentialProviderConfig, validateCredentialProviderConfigText } from "./validate-credential-provider-config.ts";

const FILE = `apiVersion: nodeagent.config.orb.io/v1beta1
kind: CredentialProviderConfig
providers:
  - name: team-registry
    matchImages: ["registry.example.io/team"]
    defaultCacheDuration: 12h
    apiVersion: credentialprovider.nodeagent.orb.io/v1
  - name: example-wildcard
    matchImages: ["*.example.io", "*.*.io:5000"]
    defaultCacheDuration: 10m
    apiVersion: credentialprovider.nodeagent.orb.io/v1
    args: [--verbose]
    env: [{name: HOME, value: /root}]
  - name: gcr
    matchImages: ["gcr.io", "*.gcr.io"]
    defaultCacheDuration: 1h
    apiVersion: credentialprovider.nodeagent.orb.io/v1
`;

describe("validateCredentialProviderConfig: examples", () => {
  it("accepts a valid file and prints its durations as Go does", () => {
    const validation = validateCredentialProviderConfigText(FILE);
    expect(validation.findings).toEqual([]);
    expect(validation.providers!.map((provider) => [provider.name, provider.defaultCacheDuration])).toEqual([
      ["team-registry", "12h0m0s"],
      ["example-wildcard", "10m0s"],
      ["gcr", "1h0m0s"],
    ]);
  });

  it("reports every problem of every provider at once", () => {
    const validation = validateCredentialProviderConfigText(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: CredentialProviderConfig
providers:
  - name: ecr/helper
    matchImages: ["bad host.io"]
    defaultCacheDuration: -1s
    apiVersion: credentialprovider.kubelet.k8s.io/v2
  - name: gcr
    defaultCacheDuration: 1h
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    env: [{name: A}]
`);
    expect(validation.dialect).toBe("kubernetes");
    expect(validation.findings.map((entry) => [entry.path, entry.ruleId])).toEqual(
      expect.arrayContaining([
        ["providers[0].name", "doc3/2.2/provider-name"],
        ["providers[0].matchImages[0]", "doc3/2.2/match-image-syntax"],
        ["providers[0].defaultCacheDuration", "doc3/2.2/default-cache-duration"],
        ["providers[0].apiVersion", "doc3/2.2/exec-api-version"],
        ["providers[1].matchImages", "doc3/2.2/match-images-required"],
        ["providers[1].env[0].value", "doc3/2/required-field"],
      ]),
    );
    expect(validation.findings).toHaveLength(6);
  });

  it("requires at least one provider", () => {
    expect(validateCredentialProviderConfigText("apiVersion: nodeagent.config.orb.io/v1beta1\nkind: CredentialProviderConfig\n").findings.map((entry) => entry.ruleId)).toEqual(["doc3/2.1/providers-required"]);
  });
});

describe("matchProviders (doc 3 §2.1, §2.2)", () => {
  it("lists the matching providers in file order: the earlier wins on overlapping auth keys", () => {
    const providers = validateCredentialProviderConfigText(FILE).providers!;
    const report = matchProviders(providers, "registry.example.io/team/app:1");
    expect(report.normalized.repository).toBe("registry.example.io/team/app");
    expect(report.precedence).toEqual(["team-registry", "example-wildcard"]);
    expect(report.providers[1]!.patterns.map((pattern) => pattern.matched)).toEqual([true, false]);
    expect(formatImageMatchReport(report).at(-1)).toContain("team-registry > example-wildcard");
    expect(matchProviders(providers, "nginx").precedence).toEqual([]);
    expect(matchProviders(providers, "eu.gcr.io/p/app").precedence).toEqual(["gcr"]);
    expect(matchProviders(providers, "a.b.io:5000/x").precedence).toEqual(["example-wildcard"]);
  });
});

type Mutation = (config: Record<string, unknown>) => Record<string, unknown>;
const provider = (config: Record<string, unknown>) => (config["providers"] as Record<string, unknown>[])[0]!;
const withFirst = (change: Record<string, unknown>): Mutation => (config) => {
  const providers = [...(config["providers"] as Record<string, unknown>[])];
  providers[0] = { ...providers[0]!, ...change };
  return { ...config, providers };
};

const breakers: Partial<Record<Doc3RuleId, Mutation>> = {
  "doc3/2.1/providers-required": (config) => ({ ...config, providers: [] }),
  "doc3/2.1/provider-names-unique": (config) => ({ ...config, providers: [...(config["providers"] as unknown[]), provider(config)] }),
  "doc3/2.2/provider-name": withFirst({ name: "../helper" }),
  "doc3/2.2/match-images-required": withFirst({ matchImages: [] }),
  "doc3/2.2/match-image-syntax": withFirst({ matchImages: ["registry.io:x"] }),
  "doc3/2.2/default-cache-duration": withFirst({ defaultCacheDuration: "-5m" }),
  "doc3/2.2/exec-api-version": withFirst({ apiVersion: "v1" }),
};

describe("validateCredentialProviderConfig: properties", () => {
  it("covers every credential provider rule with a mutation", () => {
    const ids = Object.entries(doc3Checks).filter(([, check]) => check === "credential-provider").map(([id]) => id);
    expect(Object.keys(breakers).sort()).toEqual(ids.sort());
  });

  const generated = fc.record({ seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), dialect: fc.constantFrom("orb" as const, "kubernetes" as const) }).map(({ seed, dialect }) => generateValidCredentialProviderConfig(seed, dialect));

  it("every configuration json-schema-faker generates from the (constrained) schema validates", () => {
    fc.assert(
      fc.property(generated, (config) => {
        expect(validateCredentialProviderConfig(config).findings.map(formatFinding)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("a valid configuration mutated to break one rule fails with exactly that rule's id, for every rule", () => {
    for (const [ruleId, mutate] of Object.entries(breakers) as [Doc3RuleId, Mutation][]) {
      fc.assert(
        fc.property(generated, (config) => {
          const found = new Set(validateCredentialProviderConfig(mutate(config)).findings.map((entry) => entry.ruleId));
          expect([...found], ruleId).toEqual([ruleId]);
        }),
        { numRuns: 10 },
      );
    }
  });
});
