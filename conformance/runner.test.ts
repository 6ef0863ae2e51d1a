/**
 * The runner's selection and lifecycle (issue #5, "Runner"): read-only and slow selection, the
 * per-case timeout (which deliberate real-time waits move on), namespaces deleted after each case
 * unless kept, and an aborted run (Ctrl-C) that starts no more cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectByName } from "../spec/dialects.ts";
import { defineCases } from "./case-definition.ts";
import { CaseFailure } from "./case-outcome.ts";
import { recordOf } from "./client/json-fields.ts";
import { ConformanceRun, type RunnerOptions } from "./runner.ts";
import { startEmbeddedTarget } from "./targets/embedded-target.ts";
import type { Target } from "./targets/target.ts";

const OPTIONS: RunnerOptions = { readOnly: false, slow: false, parallel: 1, caseTimeoutMs: 5_000, keepNamespaces: false };

let embedded: Target;
/** The embedded server seen as a real server: no virtual time, so waits are real. */
let realServer: Target;

beforeAll(async () => {
  embedded = await startEmbeddedTarget(dialectByName("orb"));
  realServer = { ...embedded, virtualTimeServer: undefined };
});
afterAll(async () => {
  await embedded.close();
});

async function namespacePhase(name: string): Promise<string> {
  const response = await embedded.identity.transport(new Request(`${embedded.url}/api/v1/namespaces/${name}`, { headers: embedded.identity.authHeaders }));
  if (response.status === 404) return "gone";
  const body = (await response.json()) as { metadata?: { deletionTimestamp?: string }; status?: { phase?: string } };
  return body.metadata?.deletionTimestamp !== undefined ? "deleting" : (body.status?.phase ?? "?");
}

describe("the runner", () => {
  it("reports a case that outlives its timeout as an error", async () => {
    const [hangs] = defineCases("t", [{ name: "hangs", clauses: ["doc1/1/http-methods"], tags: [], run: () => new Promise(() => undefined) }]);
    const [result] = await new ConformanceRun(embedded, { ...OPTIONS, caseTimeoutMs: 100 }).run([hangs!]);
    expect([result?.status, result?.message]).toEqual(["error", "Error: timed out after 0.1 s"]);
  });

  it("removes the target's secrets from a case's message before anyone prints it", async () => {
    const token = embedded.secrets[0]!;
    const [leaks] = defineCases("t", [
      {
        name: "leaks",
        clauses: ["doc1/1/http-methods"],
        tags: [],
        run: async () => {
          throw new CaseFailure(`the server echoed ${token} back`);
        },
      },
    ]);
    const [result] = await new ConformanceRun(embedded, OPTIONS).run([leaks!]);
    expect([result?.status, result?.message]).toEqual(["fail", "the server echoed [redacted] back"]);
  });

  it("does not count a slow case's deliberate real-time waits against its timeout", async () => {
    const [waits] = defineCases("t", [
      {
        name: "waits",
        clauses: ["doc1/1/http-methods"],
        tags: ["virtual-time"],
        run: async (context) => {
          expect(context.virtualTime).toBe(false);
          await context.advance(150);
          await context.advance(150);
        },
      },
    ]);
    const [result] = await new ConformanceRun(realServer, { ...OPTIONS, slow: true, caseTimeoutMs: 200 }).run([waits!]);
    expect([result?.status, result?.message]).toEqual(["pass", ""]);
    expect(result?.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("skips time-dependent cases against a real server without --slow, and writing cases with --read-only", async () => {
    const cases = defineCases("t", [
      { name: "timed", clauses: ["doc1/1/http-methods"], tags: ["virtual-time"], run: async () => undefined },
      { name: "writes", clauses: ["doc1/1/http-methods"], tags: ["mutating"], run: async () => undefined },
      { name: "reads", clauses: ["doc1/1/http-methods"], tags: [], run: async () => undefined },
    ]);
    const results = await new ConformanceRun(realServer, { ...OPTIONS, readOnly: true }).run(cases);
    expect(results.map((result) => [result.id, result.status, result.message])).toEqual([
      ["t/timed", "skip", "waits in real time against a real server (minutes): run with --slow"],
      ["t/writes", "skip", "mutating case, and the run is --read-only"],
      ["t/reads", "pass", ""],
    ]);
  });

  for (const keepNamespaces of [false, true]) {
    it(`${keepNamespaces ? "keeps" : "deletes"} a mutating case's namespace afterwards${keepNamespaces ? " with --keep-namespaces" : ""}`, async () => {
      let namespace = "";
      const [writes] = defineCases("t", [
        {
          name: "writes",
          clauses: ["doc1/1/http-methods"],
          tags: ["mutating"],
          run: async (context) => {
            namespace = context.namespace;
            expect(await namespacePhase(namespace)).toBe("Active");
          },
        },
      ]);
      const [result] = await new ConformanceRun(embedded, { ...OPTIONS, keepNamespaces }).run([writes!]);
      expect(result?.status).toBe("pass");
      expect(namespace).toMatch(/^orb-conformance-[0-9a-f]{6}-\d+$/);
      expect(await namespacePhase(namespace)).toMatch(keepNamespaces ? /^Active$/ : /^(gone|deleting)$/);
    });
  }

  it("warns, naming the namespace and how to remove it, when the server refuses to delete a case's namespace", async () => {
    // The embedded server, except that it refuses DELETE of a namespace, as a cluster might for the run's identity.
    const refusing: Target = {
      ...embedded,
      identity: {
        ...embedded.identity,
        transport: (request: Request) =>
          request.method === "DELETE" && /^\/api\/v1\/namespaces\/[^/]+$/.test(new URL(request.url).pathname)
            ? Promise.resolve(new Response(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", message: "not allowed here", reason: "Forbidden", code: 403 }), { status: 403, headers: { "content-type": "application/json" } }))
            : embedded.identity.transport(request),
      },
    };
    let namespace = "";
    const [writes] = defineCases("t", [{ name: "writes", clauses: ["doc1/1/http-methods"], tags: ["mutating"], run: async (context) => void (namespace = context.namespace) }]);
    const warnings: string[] = [];
    const [result] = await new ConformanceRun(refusing, { ...OPTIONS, onWarning: (message) => warnings.push(message) }).run([writes!]);
    expect(result?.status).toBe("pass");
    expect(warnings).toEqual([`could not delete namespace ${namespace} (HTTP 403 not allowed here); remove it with: kubectl delete namespace ${namespace}`]);
    expect(await namespacePhase(namespace)).toBe("Active");
    await embedded.identity.transport(new Request(`${embedded.url}/api/v1/namespaces/${namespace}`, { method: "DELETE", headers: embedded.identity.authHeaders }));
  });

  it("after abort (Ctrl-C) starts no more cases, reports them skipped, and still deletes the running case's namespace", async () => {
    let namespace = "";
    let run: ConformanceRun | undefined;
    const cases = defineCases("t", [
      {
        name: "first",
        clauses: ["doc1/1/http-methods"],
        tags: ["mutating"],
        run: async (context) => {
          namespace = context.namespace;
          run?.abort();
        },
      },
      { name: "second", clauses: ["doc1/1/http-methods"], tags: [], run: async () => undefined },
    ]);
    run = new ConformanceRun(embedded, OPTIONS);
    const results = await run.run(cases);
    expect(results.map((result) => [result.id, result.status, result.message])).toEqual([
      ["t/first", "pass", ""],
      ["t/second", "skip", "interrupted before it started"],
    ]);
    expect(await namespacePhase(namespace)).toMatch(/^(gone|deleting)$/);
  });

  it("on abort, ends a case waiting in real time at once, reports it interrupted, and deletes its namespace", async () => {
    let namespace = "";
    const run = new ConformanceRun(realServer, { ...OPTIONS, slow: true });
    const [waits] = defineCases("t", [
      {
        name: "waits",
        clauses: ["doc1/1/http-methods"],
        tags: ["mutating", "virtual-time"],
        run: async (context) => {
          namespace = context.namespace;
          setTimeout(() => run.abort(), 50);
          await context.pollUntil({ what: "nothing", withinMs: 60_000, probe: async () => undefined });
        },
      },
    ]);
    const started = performance.now();
    const [result] = await run.run([waits!]);
    expect([result?.status, result?.message]).toEqual(["skip", "interrupted (Ctrl-C) while it ran"]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await namespacePhase(namespace)).toMatch(/^(gone|deleting)$/);
  });

  it("without a second credential on a real server, acts as a ServiceAccount made in the case's namespace, by impersonation", async () => {
    // Notes the three creates the run makes (the embedded server serves ServiceAccounts, Roles and
    // RoleBindings, as a real cluster does) and passes every request on.
    const made: string[] = [];
    const transport = async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && /\/(serviceaccounts|roles|rolebindings)$/.test(path)) made.push(path.split("/").slice(-1)[0]!);
      return embedded.identity.transport(request);
    };
    const server: Target = { ...realServer, kind: "server", restricted: undefined, identity: { ...embedded.identity, transport } };
    let forbidden = "";
    const [needsIdentity] = defineCases("t", [
      {
        name: "restricted",
        clauses: ["doc1/5/forbidden"],
        tags: ["needs-second-identity"],
        run: async (context) => {
          const answer = await context.restricted!.get(`/api/v1/namespaces/${context.namespace}/secrets`);
          forbidden = `${answer.status} ${String(recordOf(answer.json).message)}`;
        },
      },
    ]);
    const [result] = await new ConformanceRun(server, OPTIONS).run([needsIdentity!]);
    expect([result?.status, result?.message]).toEqual(["pass", ""]);
    expect(made).toEqual(["serviceaccounts", "roles", "rolebindings"]);
    // The embedded server honours the header: the ServiceAccount, not the admin, was refused.
    expect(forbidden).toMatch(/^403 secrets is forbidden: User "system:serviceaccount:orb-conformance-[0-9a-f]+-\d+:orb-conformance-restricted" cannot list resource "secrets"/);
    // Where the server cannot make one (it serves no ServiceAccounts: 404), the case is skipped, saying why.
    const notFound = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "the server could not find the requested resource", reason: "NotFound", details: {}, code: 404 };
    const withoutServiceAccounts = async (request: Request) =>
      request.method === "POST" && new URL(request.url).pathname.endsWith("/serviceaccounts")
        ? new Response(JSON.stringify(notFound), { status: 404, headers: { "content-type": "application/json" } })
        : embedded.identity.transport(request);
    const [skipped] = await new ConformanceRun({ ...server, identity: { ...embedded.identity, transport: withoutServiceAccounts } }, OPTIONS).run([needsIdentity!]);
    expect([skipped?.status, skipped?.message]).toEqual([
      "skip",
      "needs a second identity: give --restricted-token or --restricted-kubeconfig (creating the restricted identity's ServiceAccount answered HTTP 404, so none could be made by impersonation)",
    ]);
  });
});
