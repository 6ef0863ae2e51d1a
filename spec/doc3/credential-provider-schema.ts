/**
 * CredentialProviderConfig, CredentialProvider and ExecEnvVar (doc 3 §2.1, §2.2) as JSON Schemas.
 * The file's apiVersion is the node agent configuration group of the dialect, as for
 * NodeAgentConfiguration; the kind is CredentialProviderConfig in both dialects.
 */
import { dialectByName, type DialectName } from "../dialects.ts";
import { durationField, listField, stringField, structType, type FieldSchema } from "./config-schema.ts";
import { nodeAgentApiVersion } from "./node-agent-schema.ts";

const S21 = "doc 3 §2.1";
const S22 = "doc 3 §2.2";

/**
 * The versions of the credential provider exec API a provider's `apiVersion` may name. Doc 3 does
 * not show them: the kubernetes names are kubelet 1.26's; the orb group is the harness's own
 * rendering of the same API (`credentialprovider.nodeagent.orb.io`), which no document names.
 */
export const EXEC_API_VERSIONS: Readonly<Record<DialectName, readonly string[]>> = {
  orb: ["credentialprovider.nodeagent.orb.io/v1alpha1", "credentialprovider.nodeagent.orb.io/v1beta1", "credentialprovider.nodeagent.orb.io/v1"],
  kubernetes: ["credentialprovider.kubelet.k8s.io/v1alpha1", "credentialprovider.kubelet.k8s.io/v1beta1", "credentialprovider.kubelet.k8s.io/v1"],
};

/** ExecEnvVar: one extra environment variable of the plugin. */
export const execEnvVarSchema: FieldSchema = structType(
  S22,
  "ExecEnvVar: an environment variable, unioned with the host's environment and client variables.",
  { name: stringField(S22, "The variable's name."), value: stringField(S22, "The variable's value.") },
  ["name", "value"],
);

/** CredentialProvider in `dialect`. */
export function credentialProviderSchema(dialect: DialectName): FieldSchema {
  return structType(
    S22,
    "CredentialProvider: one exec plugin.",
    {
      name: stringField(S22, "Must match the plugin executable name, found in --image-credential-provider-bin-dir.", { rule: "doc3/2.2/provider-name" }),
      matchImages: {
        ...listField(S22, "Patterns matched against the image: registry domain, optional port, optional path; globs in the domain only, one segment each.", stringField(S22, "A pattern.", { format: "image-pattern", rule: "doc3/2.2/match-image-syntax" })),
        minItems: 1,
        "x-rule": "doc3/2.2/match-images-required",
        "x-doc-required": true,
      },
      defaultCacheDuration: { ...durationField(S22, "In-memory credential cache time when the plugin response gives none.", { rule: "doc3/2.2/default-cache-duration" }), format: "non-negative-go-duration" },
      apiVersion: stringField(S22, "Input version of the exec request. The response must use the same version.", { enum: EXEC_API_VERSIONS[dialect], rule: "doc3/2.2/exec-api-version" }),
      args: listField(S22, "Arguments to the command.", { type: "string" }),
      env: listField(S22, "Extra environment variables.", execEnvVarSchema),
    },
    // matchImages is required too; a missing or empty list breaks doc3/2.2/match-images-required.
    ["name", "defaultCacheDuration", "apiVersion"],
  );
}

/** CredentialProviderConfig in `dialect`. */
export function credentialProviderConfigSchema(dialect: DialectName): FieldSchema {
  const kind = dialectByName(dialect).nodeAgentConfig.credentialProviderKind;
  return structType(
    S21,
    "CredentialProviderConfig: the exec plugins that supply registry credentials.",
    {
      apiVersion: { type: "string", const: nodeAgentApiVersion(dialect), "x-rule": "doc3/2/api-version-kind", "x-clause": "doc 3 §2" },
      kind: { type: "string", const: kind, "x-rule": "doc3/2/api-version-kind", "x-clause": "doc 3 §2" },
      providers: {
        ...listField(S21, "Plugins to enable. When several match one image, their results are combined; on overlapping auth keys the earlier provider wins.", credentialProviderSchema(dialect)),
        minItems: 1,
        "x-rule": "doc3/2.1/providers-required",
        "x-doc-required": true,
      },
    },
    // providers is required too; a missing or empty list breaks doc3/2.1/providers-required.
    ["apiVersion", "kind"],
  );
}
