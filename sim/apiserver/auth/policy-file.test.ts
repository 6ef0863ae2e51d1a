import { describe, expect, it } from "vitest";
import { authorize } from "./authorize.ts";
import { parsePolicyFile, PolicyFileError } from "./policy-file.ts";

function problemsOf(text: string): readonly string[] {
  try {
    parsePolicyFile(text);
  } catch (error) {
    if (error instanceof PolicyFileError) return error.problems;
    throw error;
  }
  throw new Error("expected a PolicyFileError");
}

const EXAMPLE = `# who may do what
- user: alice
  apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch]
  namespaces: [ref-main, team-a]
- group: ops
  apiGroups: ["*"]
  resources: ["*"]
  verbs: ["*"]
- group: system:authenticated
  nonResourceURLs: ["/livez/*", "/readyz/*"]
  verbs: [get]
`;

describe("parsePolicyFile", () => {
  it("reads the documented example", () => {
    expect(parsePolicyFile(EXAMPLE).rules).toEqual([
      {
        kind: "resource",
        subject: { kind: "User", name: "alice" },
        apiGroups: [""],
        resources: ["configmaps"],
        verbs: ["get", "list", "watch"],
        namespaces: ["ref-main", "team-a"],
        source: "policy rule 1 (line 2)",
      },
      {
        kind: "resource",
        subject: { kind: "Group", name: "ops" },
        apiGroups: ["*"],
        resources: ["*"],
        verbs: ["*"],
        source: "policy rule 2 (line 7)",
      },
      {
        kind: "nonResource",
        subject: { kind: "Group", name: "system:authenticated" },
        nonResourceURLs: ["/livez/*", "/readyz/*"],
        verbs: ["get"],
        source: "policy rule 3 (line 11)",
      },
    ]);
  });

  it("accepts subresources, */subresource and an empty list", () => {
    const rules = parsePolicyFile(`- user: a\n  apiGroups: [apps, ""]\n  resources: [deployments/scale, "*/status", pods]\n  verbs: [patch]\n`).rules;
    expect(rules[0]).toMatchObject({ resources: ["deployments/scale", "*/status", "pods"] });
    expect(parsePolicyFile("[]").rules).toEqual([]);
  });

  it("names rule and line for each problem in a rule", () => {
    const problems = problemsOf(`- user: alice
  group: devs
  apiGroups: [core, Apps]
  resource: [pods]
  verbs: [get, apply, fetch]
- apiGroups: [""]
  resources: [Pods, "pods/*", a/b/c]
  verbs: get
  namespaces: ["*"]
- user: bob
  apiGroups: [~]
  resources: []
  verbs: [1]
- user: carol
  nonResourceURLs: [livez, "/a*b"]
  apiGroups: [""]
  verbs: [list]
- just a string
`);
    expect(problems).toEqual([
      'rule 1 (line 1): unknown field "resource" (allowed: user, group, apiGroups, resources, verbs, namespaces, resourceNames, nonResourceURLs)',
      "rule 1 (line 1): give user or group, not both (write two rules)",
      "rule 1 (line 1): missing resources (a list)",
      'rule 1 (line 1), verbs (line 5): "apply": server-side apply is authorized as patch: write patch',
      'rule 1 (line 1), verbs (line 5): "fetch": unknown verb (known: get, list, watch, create, update, patch, delete, deletecollection, proxy, impersonate, or "*")',
      'rule 1 (line 1), apiGroups (line 3): "core": no group is called "core": the core group is written ""',
      'rule 1 (line 1), apiGroups (line 3): "Apps": not a group name (lowercase DNS name like "apps" or "coordination.k8s.io", "" for core, or "*")',
      "rule 2 (line 6): needs a subject: user: <name> or group: <name>",
      "rule 2 (line 6), verbs (line 8): must be a list, e.g. verbs: [get, list]",
      'rule 2 (line 6), resources (line 7): "Pods": not a resource name (lowercase plural as in URLs, e.g. configmaps)',
      'rule 2 (line 6), resources (line 7): "pods/*": "<resource>/*" matches nothing: list the subresources, or use "*"',
      'rule 2 (line 6), resources (line 7): "a/b/c": at most one slash: <resource>/<subresource>',
      'rule 2 (line 6), namespaces (line 9): "*": omit namespaces to allow every namespace',
      "rule 3 (line 10), verbs (line 13): entry 1 is number 1, not a string",
      'rule 3 (line 10), apiGroups (line 11): entry 1 is empty (null), not a string (write "" for the core group)',
      "rule 3 (line 10), resources (line 12): is empty, so the rule would allow nothing",
      "rule 4 (line 14): apiGroups cannot be combined with nonResourceURLs (write two rules)",
      'rule 4 (line 14), verbs (line 17): "list": unknown non-resource verb (known: get, head, post, put, patch, delete, options, or "*")',
      'rule 4 (line 14), nonResourceURLs (line 15): "livez": a path starts with "/"',
      'rule 4 (line 14), nonResourceURLs (line 15): "/a*b": "*" may appear only at the end',
      "rule 5 (line 18): a rule must be a mapping with user or group, and apiGroups, resources, verbs",
    ]);
  });

  it("grants impersonate, and restricts a rule to named objects with resourceNames, as RBAC does", () => {
    const policy = parsePolicyFile(`- user: carol
  apiGroups: ["", authentication.k8s.io]
  resources: [users, userextras/example.com/scopes]
  verbs: [impersonate, get]
  resourceNames: [bob, view]
`);
    expect(policy.rules[0]).toMatchObject({ verbs: ["impersonate", "get"], resources: ["users", "userextras/example.com/scopes"], resourceNames: ["bob", "view"] });
    const carol = { name: "carol", uid: "", groups: [] };
    const can = (verb: string, resource: string, name?: string, subresource?: string) =>
      authorize(carol, { kind: "resource", verb, apiGroup: "", resource, ...(name !== undefined && { name }), ...(subresource !== undefined && { subresource }) }, policy).allowed;
    expect([can("impersonate", "users", "bob"), can("get", "users", "bob")]).toEqual([true, true]);
    // Another name, or a request naming none (list), is not covered.
    expect([can("impersonate", "users", "mallory"), can("list", "users"), can("impersonate", "users")]).toEqual([false, false, false]);
    expect([can("impersonate", "userextras", "view", "example.com/scopes"), can("impersonate", "userextras", "view", "other")]).toEqual([true, false]);

    expect(problemsOf(`- user: a\n  apiGroups: [""]\n  resources: [pods, "userextras/"]\n  verbs: [get]\n  resourceNames: ["*", ""]\n`)).toEqual([
      'rule 1 (line 1), resources (line 3): "userextras/": an extra key follows userextras/',
      'rule 1 (line 1), resourceNames (line 5): "*": "*" is a name like any other here: omit resourceNames to allow every object',
      'rule 1 (line 1), resourceNames (line 5): "": must not be empty',
    ]);
    expect(problemsOf(`- user: a\n  nonResourceURLs: ["/x"]\n  verbs: [get]\n  resourceNames: [b]\n`)).toEqual([
      "rule 1 (line 1): resourceNames cannot be combined with nonResourceURLs (write two rules)",
    ]);
  });

  it("rejects a file that is not a list of rules, or empty, or not YAML", () => {
    expect(problemsOf("")).toEqual(["the file holds no rules: write a YAML list of rules (an empty list, [], allows nothing)"]);
    expect(problemsOf("# nothing here\n")).toHaveLength(1);
    expect(problemsOf("rules:\n  - user: a\n")).toEqual(['line 1: the file must be a YAML list of rules ("- user: …" items)']);
    const [syntax] = problemsOf("- user: a\n  verbs: [get\n");
    expect(syntax).toMatch(/^not valid YAML at line \d+, column \d+: Flow sequence/);
    expect(problemsOf("- user: a\n  user: b\n  apiGroups: ['']\n  resources: [pods]\n  verbs: [get]\n")).toEqual([
      "not valid YAML at line 2, column 3: Map keys must be unique",
    ]);
  });

  it("puts every problem in the error message", () => {
    expect(() => parsePolicyFile("- user: a\n")).toThrow(
      /^policy file: 3 problems:\n {2}rule 1 \(line 1\): missing apiGroups/,
    );
  });
});
