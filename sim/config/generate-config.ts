/**
 * Valid configurations generated with json-schema-faker from doc 3's schemas, for property tests
 * and fuzzing. The schemas give every single-field constraint (types, enums, ranges, formats); the
 * generation schemas below add what JSON Schema cannot say about pairs of fields, each as the
 * narrowest honest constraint: disjoint ranges (image GC thresholds, iptables bits, podsPerCore and
 * maxPods, each also clear of the other's default), `dependentRequired` (a cert needs its key, a
 * soft threshold its grace period), consts (every feature gate on, registerNode on), and one of the
 * two exclusive shutdown styles.
 * Generation is deterministic in its seed.
 */
import { generateSync, type JsonSchema, type Random } from "json-schema-faker";
import type { DialectName } from "../../spec/dialects.ts";
import type { FieldSchema } from "../../spec/doc3/config-schema.ts";
import { credentialProviderConfigSchema } from "../../spec/doc3/credential-provider-schema.ts";
import { nodeAgentFeatureGates } from "../../spec/doc3/feature-gates.ts";
import { nodeAgentConfigurationSchema } from "../../spec/doc3/node-agent-schema.ts";
import { SECURE_CIPHER_SUITES } from "../../spec/doc2/tls-names.ts";
import { formatGoDuration } from "./go-duration.ts";

const MS = 1_000_000n;

function durationBetween(random: Random, lowMs: number, highMs: number): string {
  return formatGoDuration(BigInt(random.int(lowMs, highMs)) * MS);
}

// Durations written the ways people write them: Go's own form, bare units, sums, fractions.
function anyDuration(random: Random): string {
  switch (random.int(0, 4)) {
    case 0:
      return durationBetween(random, 0, 3_600_000);
    case 1:
      return `${random.int(0, 120)}${random.pick(["s", "m", "h", "ms"])}`;
    case 2:
      return `${random.int(1, 5)}h${random.int(0, 59)}m`;
    case 3:
      return `${random.int(0, 9)}.${random.int(1, 9)}s`;
    default:
      return `${random.int(1, 999)}ms`;
  }
}

function anyQuantity(random: Random): string {
  return `${random.int(0, 1024)}${random.pick(["", "Ki", "Mi", "Gi", "m", "k", "M", "G"])}`;
}

function ipv4(random: Random): string {
  return `${random.int(1, 223)}.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`;
}

/** A generator for every format of doc 3's schemas (and the generation-only ones below). */
export const formatGenerators: Readonly<Record<string, (random: Random) => string>> = {
  "go-duration": anyDuration,
  "non-negative-go-duration": anyDuration,
  quantity: anyQuantity,
  "non-negative-quantity": anyQuantity,
  ip: (random) => (random.bool(0.8) ? ipv4(random) : `fd00::${random.int(1, 65535).toString(16)}`),
  "cidr-or-empty": (random) => (random.bool(0.3) ? "" : `10.${random.int(0, 255)}.0.0/${random.int(16, 24)}`),
  cpuset: (random) => (random.bool(0.3) ? "" : `0-${random.int(0, 3)},${random.int(4, 7)}`),
  percentage: (random) => `${random.int(0, 100)}%`,
  "eviction-threshold": (random) => (random.bool() ? `${random.int(0, 100)}%` : `${random.int(1, 1024)}${random.pick(["Ki", "Mi", "Gi"])}`),
  "eviction-reclaim": (random) => (random.bool() ? `${random.int(0, 100)}%` : anyQuantity(random)),
  "image-pattern": (random) => {
    // Not "[a-z]*" first: Go's url.Parse reads a host starting with "[" as an IPv6 literal.
    const host = random.pick(["registry", "*", "reg*", "r?g", "r[a-z]*"]);
    const port = random.bool(0.2) ? `:${random.int(1, 65535)}` : "";
    const path = random.bool(0.3) ? `/${random.pick(["team", "org/app", "a"])}` : "";
    return `${host}.${random.pick(["example", "*"])}.${random.pick(["io", "com", "*"])}${port}${path}`;
  },
  // Generation only: the two exclusive-range halves of the shutdown grace periods.
  "shutdown-total": (random) => durationBetween(random, 60_000, 600_000),
  "shutdown-critical": (random) => durationBetween(random, 0, 59_999),
  "cfs-period": (random) => durationBetween(random, 1, 1000),
};

type Patch = Record<string, unknown> | null;

// A copy of a struct schema with some fields replaced (shallowly merged) or removed (null).
function patchFields(schema: FieldSchema, patches: Readonly<Record<string, Patch>>): Record<string, unknown> {
  const properties: Record<string, unknown> = { ...(schema.properties ?? {}) };
  for (const [name, patch] of Object.entries(patches)) {
    if (patch === null) delete properties[name];
    else properties[name] = { ...(properties[name] as object), ...patch };
  }
  return { ...schema, properties };
}

const allGatesOn = () => ({
  properties: Object.fromEntries(nodeAgentFeatureGates.map((gate) => [gate.name, { type: "boolean", const: true }])),
  required: nodeAgentFeatureGates.map((gate) => gate.name),
  additionalProperties: false,
});

const SIGNAL = "memory.available";

/** How the generated configuration sets node shutdown: doc 3 §2.7 makes the two styles exclusive. */
export type ShutdownStyle = "grace-periods" | "by-pod-priority";

/** The NodeAgentConfiguration schema, narrowed so that every instance satisfies every rule. */
export function validNodeAgentGenerationSchema(dialect: DialectName, shutdown: ShutdownStyle): JsonSchema {
  const schema = nodeAgentConfigurationSchema(dialect);
  const struct = (name: string) => schema.properties![name]!;
  const patched = patchFields(schema, {
    // Disjoint from each other and from the other's default (high 85, low 80; masquerade 14, drop 15).
    imageGCHighThresholdPercent: { minimum: 81 },
    imageGCLowThresholdPercent: { maximum: 50 },
    iptablesMasqueradeBit: { maximum: 13 },
    iptablesDropBit: { minimum: 16 },
    maxPods: { minimum: 110, maximum: 500 },
    podsPerCore: { maximum: 110 },
    registryPullQPS: { minimum: 1 },
    eventRecordQPS: { minimum: 1 },
    enableDebuggingHandlers: { const: true },
    registerNode: { const: true },
    cgroupsPerQOS: { const: true },
    featureGates: allGatesOn(),
    tlsCertFile: { pattern: "^/etc/[a-z]{1,8}\\.crt$" },
    tlsPrivateKeyFile: { pattern: "^/etc/[a-z]{1,8}\\.key$" },
    tlsMinVersion: { enum: ["", "VersionTLS12"] },
    tlsCipherSuites: { items: { type: "string", enum: SECURE_CIPHER_SUITES } },
    cgroupRoot: { pattern: "^/[a-z]{1,8}$" },
    systemReservedCgroup: null,
    kubeReservedCgroup: null,
    enforceNodeAllocatable: { items: { type: "string", enum: ["pods"] }, maxItems: 1 },
    cpuCFSQuotaPeriod: { format: "cfs-period" },
    registerWithTaints: {
      items: {
        type: "object",
        properties: { key: { type: "string", pattern: "^[a-z]{1,10}(/[a-z]{1,10})?$" }, value: { type: "string", pattern: "^[a-z0-9]{0,10}$" }, effect: { type: "string", enum: ["NoSchedule", "PreferNoSchedule", "NoExecute"] } },
        required: ["key", "effect"],
        additionalProperties: false,
      },
    },
    reservedMemory: {
      maxItems: 1,
      items: { type: "object", properties: { numaNode: { type: "integer", minimum: 0, maximum: 7 }, limits: { type: "object", properties: { memory: { type: "string", pattern: "^[1-9][0-9]{0,3}Mi$" } }, required: ["memory"], additionalProperties: false } }, required: ["numaNode", "limits"], additionalProperties: false },
    },
    evictionSoft: { properties: { [SIGNAL]: { type: "string", format: "eviction-threshold" } }, required: [SIGNAL] },
    evictionSoftGracePeriod: { properties: { [SIGNAL]: { type: "string", format: "non-negative-go-duration" } }, required: [SIGNAL] },
    logging: {
      ...patchFields(struct("logging"), {
        format: { enum: ["text"] },
        flushFrequency: { type: "integer", minimum: 1, maximum: 10_000_000_000, format: undefined },
        vmodule: { items: { type: "object", properties: { filePattern: { type: "string", pattern: "^[a-z]{1,8}\\*?$" }, verbosity: { type: "integer", minimum: 0, maximum: 10 } }, required: ["filePattern", "verbosity"], additionalProperties: false } },
      }),
    },
    ...(shutdown === "grace-periods"
      ? { shutdownGracePeriod: { format: "shutdown-total" }, shutdownGracePeriodCriticalPods: { format: "shutdown-critical" }, shutdownGracePeriodByPodPriority: null }
      : { shutdownGracePeriod: null, shutdownGracePeriodCriticalPods: null }),
  });
  return {
    ...patched,
    // The gates must be present: several default to off in Kubernetes 1.26.
    required: [...(schema.required ?? []), "featureGates"],
    dependentRequired: {
      tlsCertFile: ["tlsPrivateKeyFile"],
      tlsPrivateKeyFile: ["tlsCertFile"],
      systemCgroups: ["cgroupRoot"],
      evictionSoft: ["evictionSoftGracePeriod"],
      shutdownGracePeriodCriticalPods: ["shutdownGracePeriod"],
    },
  } as JsonSchema;
}

/** The CredentialProviderConfig schema, narrowed so that every instance satisfies every rule. */
export function validCredentialProviderGenerationSchema(dialect: DialectName): JsonSchema {
  const schema = credentialProviderConfigSchema(dialect);
  const providers = schema.properties!["providers"]!;
  const patched = patchFields(schema, {
    providers: {
      maxItems: 4,
      items: { ...patchFields(providers.items!, { name: { pattern: "^[a-z]{8}$" }, matchImages: { maxItems: 3 } }), required: ["name", "matchImages", "defaultCacheDuration", "apiVersion"] },
    },
  });
  return { ...patched, required: ["apiVersion", "kind", "providers"] } as JsonSchema;
}

const OPTIONS = { maxDepth: 10, formats: formatGenerators } as const;

/**
 * The schema without its `x-` annotations: json-schema-faker reads unknown object-valued keys of an
 * object schema without `properties` (a map) as fields to generate.
 */
export function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (typeof schema !== "object" || schema === null) return schema;
  const entries = Object.entries(schema).filter(([key]) => !key.startsWith("x-"));
  // `enum`, `const` and `default` hold data, not schemas: copy them as they are.
  return Object.fromEntries(entries.map(([key, value]) => [key, key === "enum" || key === "const" || key === "default" ? value : withoutAnnotations(value)]));
}

/** A valid NodeAgentConfiguration for `seed`. */
export function generateValidNodeAgentConfig(seed: number, dialect: DialectName = "orb", shutdown: ShutdownStyle = "grace-periods"): Record<string, unknown> {
  return generateSync(withoutAnnotations(validNodeAgentGenerationSchema(dialect, shutdown)) as JsonSchema, { ...OPTIONS, seed }) as Record<string, unknown>;
}

/** A valid CredentialProviderConfig for `seed`. */
export function generateValidCredentialProviderConfig(seed: number, dialect: DialectName = "orb"): Record<string, unknown> {
  return generateSync(withoutAnnotations(validCredentialProviderGenerationSchema(dialect)) as JsonSchema, { ...OPTIONS, seed }) as Record<string, unknown>;
}
