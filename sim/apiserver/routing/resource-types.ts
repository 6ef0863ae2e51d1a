/**
 * The resource types the embedded server serves (issue #3: namespaces, nodes, pods with status and
 * eviction, configmaps, secrets, services, events, leases, deployments with status and scale; the
 * review virtual types), and 24 more built-in types derived from a recording of kube-apiserver
 * 1.26.4 (recorded-types.ts), per dialect: the groups of leases and of the RBAC kinds differ
 * (coordination.orb.io vs coordination.k8s.io, rbac.authorization.orb.io vs rbac.authorization.k8s.io). Discovery, routing, naming rules
 * and storage keys all read this one table.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import { AUTHENTICATION_GROUP } from "../auth/impersonate.ts";
import { customResourceDefinitionsType, type CustomResourceVersion } from "./custom-resources.ts";
import { recordedResourceTypes } from "./recorded-types.ts";

/** Which name rule a type's objects follow (Kubernetes validation; doc 1 §2.1 names no rule). */
export type NameRule = "subdomain" | "label" | "dns1035" | "path-segment";

/** The standard verbs of an object type (doc 1 §1). */
export type Verb = "create" | "delete" | "deletecollection" | "get" | "list" | "patch" | "update" | "watch";

/** A served resource type. */
export interface ResourceType {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** The plural in URLs (doc 1 §1 "resource type"). */
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly Verb[];
  readonly shortNames: readonly string[];
  /** Discovery's categories (`all`); when absent, discovery.ts's table of the first nine kinds decides. */
  readonly categories?: readonly string[];
  readonly nameRule: NameRule;
  /** Subresources and the verbs each allows. */
  readonly subresources: Readonly<Record<string, readonly Verb[]>>;
  /** Kubernetes' storageVersionHash, shown in discovery (as in the reference discovery transcripts). */
  readonly storageVersionHash?: string;
  /** A virtual type (doc 1 §1): an operation, not an object; nothing is stored, only POST is served. */
  readonly virtual?: boolean;
  /** A type derived from the recording of kube-apiserver 1.26.4 (recorded-types.ts). */
  readonly recorded?: boolean;
  /** A custom resource type: what its CustomResourceDefinition says of the served version (custom-resources.ts). */
  readonly custom?: CustomResourceVersion;
}

const ALL_VERBS: readonly Verb[] = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
// Kubernetes serves no deletecollection on namespaces: deleting them all would delete everything.
const NAMESPACE_VERBS: readonly Verb[] = ["create", "delete", "get", "list", "patch", "update", "watch"];

/** The `apiVersion` of a type: "v1" for core, "<group>/<version>" otherwise (doc 1 §9.1). */
export function apiVersionOf(type: Pick<ResourceType, "group" | "version">): string {
  return type.group === "" ? type.version : `${type.group}/${type.version}`;
}

/** Every resource type the server serves in `dialect`. */
export function resourceTypes(dialect: Dialect): readonly ResourceType[] {
  const core = (resource: string, singular: string, kind: string, rest: Partial<ResourceType>): ResourceType => ({
    group: "",
    version: "v1",
    resource,
    singular,
    kind,
    namespaced: true,
    verbs: ALL_VERBS,
    shortNames: [],
    nameRule: "subdomain",
    subresources: {},
    ...rest,
  });
  return [
    core("configmaps", "configmap", "ConfigMap", { shortNames: ["cm"], storageVersionHash: "qFsyl6wFWjQ=" }),
    core("events", "event", "Event", { shortNames: ["ev"], storageVersionHash: "r2yiGXH7wu8=" }),
    core("namespaces", "namespace", "Namespace", {
      namespaced: false,
      verbs: NAMESPACE_VERBS,
      shortNames: ["ns"],
      nameRule: "label",
      subresources: { status: ["get", "patch", "update"], finalize: ["update"] },
      storageVersionHash: "Q3oi5N2YM8M=",
    }),
    core("nodes", "node", "Node", {
      namespaced: false,
      shortNames: ["no"],
      subresources: { status: ["get", "patch", "update"] },
      storageVersionHash: "XwShjMxG9Fs=",
    }),
    core("pods", "pod", "Pod", {
      shortNames: ["po"],
      subresources: { status: ["get", "patch", "update"], eviction: ["create"] },
      storageVersionHash: "xPOwRZ+Yhw8=",
    }),
    core("secrets", "secret", "Secret", { storageVersionHash: "S6u1pOWzb84=" }),
    core("services", "service", "Service", {
      shortNames: ["svc"],
      nameRule: "dns1035",
      subresources: { status: ["get", "patch", "update"] },
      storageVersionHash: "0/CO1lhkEBI=",
    }),
    {
      group: "apps",
      version: "v1",
      resource: "deployments",
      singular: "deployment",
      kind: "Deployment",
      namespaced: true,
      verbs: ALL_VERBS,
      shortNames: ["deploy"],
      nameRule: "subdomain",
      subresources: { status: ["get", "patch", "update"], scale: ["get", "patch", "update"] },
      storageVersionHash: "8aSe+NMegvE=",
    },
    {
      group: dialect.groups.coordination,
      version: "v1",
      resource: "leases",
      singular: "lease",
      kind: "Lease",
      namespaced: true,
      verbs: ALL_VERBS,
      shortNames: [],
      nameRule: "subdomain",
      subresources: {},
      storageVersionHash: "gqkMMb/YqFM=",
    },
    // Doc 1 §1's example of a virtual type: a permission check, POSTed, never stored; and the
    // caller's rules in a namespace (`kubectl auth can-i --list`), in the same group.
    ...(
      [
        ["subjectaccessreviews", "SubjectAccessReview"],
        ["selfsubjectaccessreviews", "SelfSubjectAccessReview"],
        ["selfsubjectrulesreviews", "SelfSubjectRulesReview"],
      ] as const
    ).map(([resource, kind]) => virtualType(dialect.groups.authorization, "v1", resource, kind)),
    // Who the caller is (`kubectl auth whoami`), in authentication.k8s.io as in both dialects'
    // impersonation; v1alpha1, as kube-apiserver 1.26 serves it with its feature gate on (why:
    // auth/self-subject-review.ts).
    virtualType(AUTHENTICATION_GROUP, "v1alpha1", "selfsubjectreviews", "SelfSubjectReview"),
    // 24 more built-in types (ServiceAccount, RBAC, Job, StatefulSet, ...): derived from kube-apiserver 1.26.4's answers (recorded-types.ts).
    ...recordedResourceTypes(dialect),
  ];
}

/** A virtual type (doc 1 §1): POSTed to its cluster-scoped collection, answered, never stored. */
function virtualType(group: string, version: string, resource: string, kind: string): ResourceType {
  return {
    group,
    version,
    resource,
    singular: resource.slice(0, -1),
    kind,
    namespaced: false,
    verbs: ["create"],
    shortNames: [],
    nameRule: "subdomain",
    subresources: {},
    virtual: true,
  };
}

/**
 * The served types of one dialect, looked up by group, version and plural. Custom resource types
 * come and go while the server runs, as their definitions are created, updated and deleted
 * (apiextensions/definition-lifecycle.ts); `revision` counts those changes, so what is built from
 * the types (the OpenAPI documents) knows when to rebuild.
 */
export class ResourceRegistry {
  private served: readonly ResourceType[];
  private readonly byPath = new Map<string, ResourceType>();
  private changes = 0;

  /** The built-in types of `dialect`, the CustomResourceDefinitions type, and `customTypes`. */
  constructor(dialect: Dialect, customTypes: readonly ResourceType[] = []) {
    this.served = [...resourceTypes(dialect), customResourceDefinitionsType];
    for (const type of this.served) this.byPath.set(pathOf(type), type);
    this.add(customTypes);
  }

  /** Every served type, built-in first, then custom ones in the order they came. */
  get types(): readonly ResourceType[] {
    return this.served;
  }

  /** How many times the custom types changed. */
  get revision(): number {
    return this.changes;
  }

  /** The type at `/api(s)/<group>/<version>/<resource>`, if served. */
  find(group: string, version: string, resource: string): ResourceType | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  /** Whether `types` can be served: no path of theirs is served already (by another definition or a built-in type). */
  canAdd(types: readonly ResourceType[]): boolean {
    return types.every((type) => !this.byPath.has(pathOf(type)));
  }

  /** Serves `types` (custom resource types); throws if one would replace a served type. */
  add(types: readonly ResourceType[]): void {
    if (types.length === 0) return;
    for (const type of types) {
      if (this.byPath.has(pathOf(type))) throw new Error(`resource ${pathOf(type)} is already served: a custom definition may not replace it`);
    }
    for (const type of types) this.byPath.set(pathOf(type), type);
    this.served = [...this.served, ...types];
    this.changes += 1;
  }

  /** Stops serving the custom types of the definition `definitionName`. */
  removeDefinition(definitionName: string): void {
    const gone = this.served.filter((type) => type.custom?.definition === definitionName);
    if (gone.length === 0) return;
    for (const type of gone) this.byPath.delete(pathOf(type));
    this.served = this.served.filter((type) => type.custom?.definition !== definitionName);
    this.changes += 1;
  }

  /** The custom types of the definition `definitionName`. */
  definitionTypes(definitionName: string): readonly ResourceType[] {
    return this.served.filter((type) => type.custom?.definition === definitionName);
  }

  /** The group/versions served, core ("") first, in the order discovery lists them. */
  groupVersions(): Array<{ group: string; version: string }> {
    const seen = new Map<string, { group: string; version: string }>();
    for (const type of this.served) seen.set(`${type.group}/${type.version}`, { group: type.group, version: type.version });
    return [...seen.values()];
  }
}

function pathOf(type: ResourceType): string {
  return `${type.group}/${type.version}/${type.resource}`;
}
