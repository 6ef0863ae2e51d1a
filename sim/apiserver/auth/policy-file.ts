/**
 * The policy file (`--policy-file`): the authorization rules of doc 1 §5.2 (apiGroups, resources,
 * verbs) granted to a user or a group, in YAML. Rules only allow; whatever no rule allows is
 * denied (as RBAC: there are no deny rules). The format:
 *
 * ```yaml
 * # A YAML list of rules. Each names exactly one subject: `user` or `group`.
 * - user: alice                       # read ConfigMaps in two namespaces
 *   apiGroups: [""]                   # "" is the core group; "*" is every group
 *   resources: [configmaps]           # plural as in URLs; "pods/status" for a subresource;
 *                                     # "*" for all; "*" and "/status" written together for
 *                                     # that subresource of every resource
 *   verbs: [get, list, watch]         # "*" for every verb
 *   namespaces: [ref-main, team-a]    # optional; omitted = every namespace and cluster scope
 *   resourceNames: [settings]         # optional; omitted = every object; else only requests
 *                                     # naming one (get, update, patch, delete, impersonate)
 * - group: ops
 *   apiGroups: ["*"]
 *   resources: ["*"]
 *   verbs: ["*"]
 * - user: carol                       # impersonation (`kubectl --as bob --as-group devs`):
 *   apiGroups: [""]                   # users, groups, serviceaccounts (namespaced) in "";
 *   resources: [users, groups]        # uids, userextras/<key> in authentication.k8s.io
 *   verbs: [impersonate]
 *   resourceNames: [bob, devs]
 * - group: system:authenticated      # paths that are not resources: /livez/<check>, /metrics…
 *   nonResourceURLs: ["/livez/*", "/readyz/*"]   # exact, or a prefix ending in "*"
 *   verbs: [get]
 * ```
 *
 * A rule grants either resources (`apiGroups` + `resources`, optional `namespaces` and
 * `resourceNames`) or paths (`nonResourceURLs`), never both, with `verbs` in either case.
 * Matching follows RBAC: `pods` does not cover `pods/status`; a namespace-restricted rule does not
 * cover cluster-scoped requests or lists across all namespaces; a rule with resourceNames covers
 * only requests naming one of them (not list, watch, or create of a collection). Every problem is
 * reported, each naming its rule and line.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from "yaml";

/** Who a rule applies to. */
export interface PolicySubject {
  readonly kind: "User" | "Group";
  readonly name: string;
}

interface RuleBase {
  readonly subject: PolicySubject;
  readonly verbs: readonly string[];
  /** Where the rule comes from, for reasons and messages: `policy rule 2 (line 7)`. */
  readonly source: string;
}

/** A rule over resources. */
export interface ResourceRule extends RuleBase {
  readonly kind: "resource";
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  /** Undefined: every namespace and cluster scope. */
  readonly namespaces?: readonly string[];
  /** Undefined: every object; else only requests naming one of these (RBAC's resourceNames). */
  readonly resourceNames?: readonly string[];
}

/** A rule over paths that are not resources (health checks, version, discovery). */
export interface NonResourceRule extends RuleBase {
  readonly kind: "nonResource";
  readonly nonResourceURLs: readonly string[];
}

/** One rule of a policy. */
export type PolicyRule = ResourceRule | NonResourceRule;

/** A parsed policy. */
export interface Policy {
  readonly rules: readonly PolicyRule[];
}

/** A policy file that cannot be used; `problems` lists each, naming rule and line. */
export class PolicyFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`policy file: ${problems.length === 1 ? problems[0]! : `${problems.length} problems:\n  ${problems.join("\n  ")}`}`);
    this.name = "PolicyFileError";
  }
}

/**
 * Verbs a resource rule may name (doc 1 §1, less `apply`, which is authorized as `patch`), and
 * `impersonate`, the verb kube-apiserver checks on users, groups, serviceaccounts, uids and
 * userextras before honouring Impersonate-* headers (impersonate.ts).
 */
export const RESOURCE_VERBS: readonly string[] = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "proxy", "impersonate"];

/** Verbs a non-resource rule may name: the lowercase HTTP methods. */
export const NON_RESOURCE_VERBS: readonly string[] = ["get", "head", "post", "put", "patch", "delete", "options"];

const RULE_KEYS = ["user", "group", "apiGroups", "resources", "verbs", "namespaces", "resourceNames", "nonResourceURLs"] as const;

const NAME = "[a-z0-9]([-a-z0-9.]*[a-z0-9])?";
const GROUP_PATTERN = new RegExp(`^${NAME}$`);
const RESOURCE_PART = new RegExp(`^${NAME}$`);

/** Parses the YAML text of a policy file; throws a PolicyFileError listing every problem. */
export function parsePolicyFile(text: string): Policy {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new PolicyFileError(
      document.errors.map((error) => {
        const start = lineCounter.linePos(error.pos[0]);
        const where = ` at line ${start.line}, column ${start.col}`;
        return `not valid YAML${where}: ${firstLine(error.message)}`;
      }),
    );
  }
  const root = document.contents;
  if (root === null || (isScalar(root) && root.value === null)) {
    throw new PolicyFileError(["the file holds no rules: write a YAML list of rules (an empty list, [], allows nothing)"]);
  }
  if (!isSeq(root)) {
    throw new PolicyFileError([`line ${lineOf(lineCounter, root)}: the file must be a YAML list of rules ("- user: …" items)`]);
  }
  const problems: string[] = [];
  const rules: PolicyRule[] = [];
  root.items.forEach((item, index) => {
    const where = `rule ${index + 1} (line ${lineOf(lineCounter, item)})`;
    const rule = readRule(item, where, lineCounter, problems);
    if (rule !== undefined) rules.push(rule);
  });
  if (problems.length > 0) throw new PolicyFileError(problems);
  return { rules };
}

function readRule(item: unknown, where: string, lineCounter: LineCounter, problems: string[]): PolicyRule | undefined {
  if (!isMap(item)) {
    problems.push(`${where}: a rule must be a mapping with user or group, and apiGroups, resources, verbs`);
    return undefined;
  }
  const before = problems.length;
  const fields = new Map<string, Pair<unknown, unknown>>();
  for (const pair of item.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== "string" || !(RULE_KEYS as readonly string[]).includes(key)) {
      const shown = typeof key === "string" ? `"${key}"` : "a non-text key";
      problems.push(`${where}: unknown field ${shown} (allowed: ${RULE_KEYS.join(", ")})`);
      continue;
    }
    fields.set(key, pair);
  }
  const at = (key: string) => {
    const node = fields.get(key)?.value;
    return isNode(node) ? `${where}, ${key} (line ${lineOf(lineCounter, node)})` : `${where}, ${key}`;
  };

  // Subject: exactly one of user and group.
  const user = fields.has("user") ? readName(fields.get("user")!.value, at("user"), problems) : undefined;
  const group = fields.has("group") ? readName(fields.get("group")!.value, at("group"), problems) : undefined;
  if (fields.has("user") && fields.has("group")) problems.push(`${where}: give user or group, not both (write two rules)`);
  if (!fields.has("user") && !fields.has("group")) problems.push(`${where}: needs a subject: user: <name> or group: <name>`);

  const isNonResource = fields.has("nonResourceURLs");
  if (isNonResource) {
    for (const key of ["apiGroups", "resources", "namespaces", "resourceNames"]) {
      if (fields.has(key)) problems.push(`${where}: ${key} cannot be combined with nonResourceURLs (write two rules)`);
    }
  } else {
    for (const key of ["apiGroups", "resources"]) {
      if (!fields.has(key)) problems.push(`${where}: missing ${key} (a list${key === "apiGroups" ? `; "" is the core group` : ""})`);
    }
  }
  if (!fields.has("verbs")) problems.push(`${where}: missing verbs (a list, e.g. [get, list, watch])`);

  const verbs = readList(fields.get("verbs")?.value, "verbs", at("verbs"), problems, (verb) =>
    checkVerb(verb, isNonResource ? NON_RESOURCE_VERBS : RESOURCE_VERBS, isNonResource),
  );
  let rule: PolicyRule | undefined;
  const subject: PolicySubject | undefined =
    user !== undefined ? { kind: "User", name: user } : group !== undefined ? { kind: "Group", name: group } : undefined;
  const source = `policy ${where}`;
  if (isNonResource) {
    const urls = readList(fields.get("nonResourceURLs")!.value, "nonResourceURLs", at("nonResourceURLs"), problems, checkUrl);
    if (subject !== undefined && verbs !== undefined && urls !== undefined) {
      rule = { kind: "nonResource", subject, verbs, nonResourceURLs: urls, source };
    }
  } else {
    const apiGroups = fields.has("apiGroups") ? readList(fields.get("apiGroups")!.value, "apiGroups", at("apiGroups"), problems, checkGroup) : undefined;
    const resources = fields.has("resources") ? readList(fields.get("resources")!.value, "resources", at("resources"), problems, checkResource) : undefined;
    const namespaces = fields.has("namespaces")
      ? readList(fields.get("namespaces")!.value, "namespaces", at("namespaces"), problems, checkNamespace)
      : undefined;
    const resourceNames = fields.has("resourceNames")
      ? readList(fields.get("resourceNames")!.value, "resourceNames", at("resourceNames"), problems, checkResourceName)
      : undefined;
    if (subject !== undefined && verbs !== undefined && apiGroups !== undefined && resources !== undefined) {
      rule = {
        kind: "resource",
        subject,
        apiGroups,
        resources,
        verbs,
        ...(namespaces !== undefined && { namespaces }),
        ...(resourceNames !== undefined && { resourceNames }),
        source,
      };
    }
  }
  return problems.length === before ? rule : undefined;
}

function readName(value: unknown, at: string, problems: string[]): string | undefined {
  const text = isScalar(value) ? value.value : undefined;
  if (typeof text !== "string" || text === "") {
    problems.push(`${at}: must be a non-empty name`);
    return undefined;
  }
  return text;
}

/** A non-empty list of strings, each checked by `check` (which returns a problem or undefined). */
function readList(
  value: unknown,
  key: string,
  at: string,
  problems: string[],
  check: (entry: string) => string | undefined,
): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!isSeq(value)) {
    problems.push(`${at}: must be a list, e.g. ${key}: [${EXAMPLES[key] ?? "…"}]`);
    return undefined;
  }
  if (value.items.length === 0) {
    problems.push(`${at}: is empty, so the rule would allow nothing`);
    return undefined;
  }
  const entries: string[] = [];
  let ok = true;
  value.items.forEach((item, index) => {
    const text = isScalar(item) ? item.value : undefined;
    if (typeof text !== "string") {
      const shown = isScalar(item) ? (item.value === null ? "empty (null)" : `${typeof item.value} ${String(item.value)}`) : "not a plain value";
      const hint = key === "apiGroups" && isScalar(item) && item.value === null ? ` (write "" for the core group)` : "";
      problems.push(`${at}: entry ${index + 1} is ${shown}, not a string${hint}`);
      ok = false;
      return;
    }
    const problem = check(text);
    if (problem !== undefined) {
      problems.push(`${at}: ${JSON.stringify(text)}: ${problem}`);
      ok = false;
      return;
    }
    entries.push(text);
  });
  return ok ? entries : undefined;
}

const EXAMPLES: Readonly<Record<string, string>> = {
  verbs: "get, list",
  apiGroups: '"", apps',
  resources: "configmaps, pods/status",
  namespaces: "default",
  resourceNames: "settings",
  nonResourceURLs: '"/livez/*"',
};

function checkVerb(verb: string, allowed: readonly string[], nonResource: boolean): string | undefined {
  if (verb === "*" || allowed.includes(verb)) return undefined;
  if (!nonResource && verb === "apply") return "server-side apply is authorized as patch: write patch";
  return `unknown ${nonResource ? "non-resource " : ""}verb (known: ${allowed.join(", ")}, or "*")`;
}

function checkGroup(group: string): string | undefined {
  if (group === "" || group === "*") return undefined;
  if (group === "core") return `no group is called "core": the core group is written ""`;
  if (!GROUP_PATTERN.test(group)) return `not a group name (lowercase DNS name like "apps" or "coordination.k8s.io", "" for core, or "*")`;
  return undefined;
}

function checkResource(resource: string): string | undefined {
  if (resource === "*") return undefined;
  const parts = resource.split("/");
  if (parts[1] === "*") return `"<resource>/*" matches nothing: list the subresources, or use "*"`;
  // An extra key is the subresource of userextras, and keys are often paths (example.com/scopes).
  if (parts[0] === "userextras" && parts.length > 1) return parts.slice(1).join("/") === "" ? "an extra key follows userextras/" : undefined;
  if (parts.length > 2) return "at most one slash: <resource>/<subresource>";
  const [main, sub] = parts as [string, string | undefined];
  if (main !== "*" && !RESOURCE_PART.test(main)) return "not a resource name (lowercase plural as in URLs, e.g. configmaps)";
  if (sub !== undefined && !RESOURCE_PART.test(sub)) return "not a subresource name (lowercase, e.g. status)";
  return undefined;
}

function checkNamespace(namespace: string): string | undefined {
  if (namespace === "*") return "omit namespaces to allow every namespace";
  if (!RESOURCE_PART.test(namespace)) return "not a namespace name";
  return undefined;
}

function checkResourceName(name: string): string | undefined {
  if (name === "*") return `"*" is a name like any other here: omit resourceNames to allow every object`;
  return name === "" ? "must not be empty" : undefined;
}

function checkUrl(url: string): string | undefined {
  if (url === "*") return undefined;
  if (!url.startsWith("/")) return `a path starts with "/"`;
  if (url.slice(0, -1).includes("*")) return `"*" may appear only at the end`;
  return undefined;
}

function isNode(value: unknown): value is Node {
  return isScalar(value) || isMap(value) || isSeq(value);
}

function lineOf(lineCounter: LineCounter, node: unknown): number {
  const range = isNode(node) ? node.range : undefined;
  return range === undefined || range === null ? 1 : lineCounter.linePos(range[0]).line;
}

/** The first line of a yaml error message, without its own " at line L, column C:" ending. */
function firstLine(message: string): string {
  return message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
}
