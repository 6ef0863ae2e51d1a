import { describe, expect, it } from "vitest";
import { clauseById } from "./doc1/clauses.ts";
import { dialectByName, dialects, deviations, type DialectName } from "./dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "./reference-transcripts.ts";

// Every leaf of a dialect as "path = value", so two dialects can be compared key by key.
function leaves(value: unknown, path = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [p, v] of leaves(child, path === "" ? key : `${path}.${key}`)) out.set(p, v);
    }
  } else {
    out.set(path, value);
  }
  return out;
}

const orb = dialectByName("orb");
const kubernetes = dialectByName("kubernetes");

describe("dialects", () => {
  it("are orb and kubernetes, found by name", () => {
    expect(dialects.map((d) => d.name)).toEqual(["orb", "kubernetes"]);
    expect(orb.name).toBe("orb");
    expect(kubernetes.name).toBe("kubernetes");
  });

  it("refuse an unknown name, listing the known ones", () => {
    expect(() => dialectByName("k8s")).toThrow(/unknown dialect "k8s": expected one of orb, kubernetes/);
  });

  it("define every key, with a non-empty value, in both dialects", () => {
    const orbLeaves = leaves(orb);
    const kubernetesLeaves = leaves(kubernetes);
    expect([...orbLeaves.keys()].sort()).toEqual([...kubernetesLeaves.keys()].sort());
    for (const [path, value] of [...orbLeaves, ...kubernetesLeaves]) {
      const ok = (typeof value === "string" && value !== "") || (Array.isArray(value) && value.length > 0);
      expect(ok, path).toBe(true);
    }
  });

  it("keep orb names free of Kubernetes names and the reverse", () => {
    for (const [path, value] of leaves(orb)) expect(String(value), path).not.toMatch(/k8s|kube|kubernetes/);
    for (const [path, value] of leaves(kubernetes)) expect(String(value), path).not.toMatch(/orb/);
  });

  it("build the Table media type from the meta group (doc 1 §4.3, §9)", () => {
    for (const d of dialects) {
      expect(d.tableMediaType).toBe(`application/json;as=Table;g=${d.metaGroup};v=v1`);
    }
  });

  it("use the documents' names in the orb dialect", () => {
    // Doc 1 §4.3; doc 2 --leader-elect-resource-name, --leader-elect-resource-namespace, --cluster-signing-*, --cluster-name.
    expect(orb.protobufMediaType).toBe("application/vnd.orb.protobuf");
    expect(orb.leaderElection).toEqual({ controllerManager: "orb-controller-manager", scheduler: "orb-scheduler" });
    expect(orb.namespaces.system).toBe("orb-system");
    expect(orb.signers.apiServerClient).toBe("orb.io/api-client");
    expect(orb.signers.nodeAgentServing).toBe("orb.io/nodeagent-serving");
    expect(orb.clusterName).toBe("orb");
    // Doc 1 §4.5.4: shutdown is the readiness check.
    expect(orb.health.readinessOnlyChecks).toContain("shutdown");
  });

  it("differ wherever the names differ, and only on purpose", () => {
    const same = [...leaves(orb)].filter(([path, value]) => JSON.stringify(leaves(kubernetes).get(path)) === JSON.stringify(value)).map(([p]) => p);
    expect(same.sort()).toEqual(["health.verboseLastLine.healthz", "namespaces.default", "nodeAgentConfig.credentialProviderKind"]);
  });
});

describe("deviations", () => {
  it("have unique ids and cite clauses that exist", () => {
    const ids = deviations.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of deviations) clauseById(d.clause);
  });

  it("say what the document and Kubernetes each say, and what every dialect answers", () => {
    const names: DialectName[] = dialects.map((d) => d.name);
    for (const d of deviations) {
      expect(d.perDoc, d.id).toMatch(/^per doc 1 §\d/);
      expect(d.perKubernetes, d.id).toMatch(/^per Kubernetes/);
      expect(d.perDoc, d.id).toContain(`§${clauseById(d.clause).section}`);
      for (const name of names) expect(d.answers[name], `${d.id} ${name}`).not.toBe("");
      expect(d.suiteAccepts).not.toBe("");
    }
  });

  it("record at least the deviations the team relies on", () => {
    const ids = new Set(deviations.map((d) => d.id));
    for (const id of ["bare-dry-run", "dry-run-other-values", "rv0-limit-ignored", "watch-expired", "event-type-names", "rv-unparseable"]) {
      expect(ids.has(id), id).toBe(true);
    }
  });
});

const all = loadReferenceTranscripts();

describe("kubernetes dialect against the 1.26 transcripts", () => {
  it("names transcripts that exist in every deviation", () => {
    for (const d of deviations) if (d.transcript !== undefined) transcriptById(all, d.transcript);
  });

  it("uses the meta group and protobuf media type the server sent", () => {
    expect(transcriptJson(transcriptById(all, "table-configmaps"))).toMatchObject({ apiVersion: `${kubernetes.metaGroup}/v1` });
    expect(transcriptById(all, "protobuf-get-configmap").response.headers["content-type"]).toBe(kubernetes.protobufMediaType);
  });

  it("puts node leases in the namespace and group the server used", () => {
    const path = transcriptById(all, "node-lease-create").request.path;
    expect(path).toBe(`/apis/${kubernetes.groups.coordination}/v1/namespaces/${kubernetes.namespaces.nodeLease}/leases`);
  });

  it("ends verbose health output with the lines the server sent", () => {
    for (const endpoint of ["healthz", "livez", "readyz"] as const) {
      const lines = (transcriptById(all, `health-${endpoint}-verbose`).response.body.text ?? "").trim().split("\n");
      expect(lines.at(-1)).toBe(kubernetes.health.verboseLastLine[endpoint]);
      expect(lines).toContain(`[+]${kubernetes.health.persistenceCheck} ok`);
    }
  });

  it("lists as readiness-only exactly the checks /readyz has and /livez lacks", () => {
    const checks = (id: string) =>
      (transcriptById(all, id).response.body.text ?? "").split("\n").filter((l) => l.startsWith("[+]")).map((l) => l.slice(3, -" ok".length));
    const live = new Set(checks("health-livez-verbose"));
    expect(checks("health-readyz-verbose").filter((c) => !live.has(c))).toEqual([...kubernetes.health.readinessOnlyChecks]);
  });
});

describe("dialect answers", () => {
  it("name a recorded deviation for every behaviour switch, and the dialects differ on each", () => {
    const orb = dialectByName("orb");
    const kubernetes = dialectByName("kubernetes");
    for (const key of Object.keys(orb.answers) as Array<keyof typeof orb.answers>) {
      expect(deviations.map((deviation) => deviation.id)).toContain(key);
      expect(orb.answers[key]).not.toBe(kubernetes.answers[key]);
    }
  });
});
