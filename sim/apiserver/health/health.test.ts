import { describe, expect, it } from "vitest";
import { dialectByName } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById } from "../../../spec/reference-transcripts.ts";
import { Simulation } from "../../kernel/index.ts";
import { healthCheckNames, healthChecks, healthEndpoints } from "./checks.ts";
import { HealthState, type HealthStateOptions } from "./health-state.ts";
import { healthResponse, parseHealthPath, type HealthResponse } from "./health-response.ts";

const kubernetes = dialectByName("kubernetes");
const orb = dialectByName("orb");

function stateFor(options: Partial<HealthStateOptions> & { sim?: Simulation } = {}): { state: HealthState; sim: Simulation } {
  const sim = options.sim ?? new Simulation({ seed: "health", epochMs: 1_700_000_000_000 });
  return { state: new HealthState({ dialect: kubernetes, clock: sim, ...options }), sim };
}

/** The answer to a request path with query, as the router would route it. */
function get(state: HealthState, pathAndQuery: string): HealthResponse {
  const url = new URL(pathAndQuery, "http://server");
  const target = parseHealthPath(url.pathname);
  if (target === undefined) throw new Error(`not a health path: ${pathAndQuery}`);
  return healthResponse(state, target.endpoint, target.checkName, url.searchParams);
}

const transcripts = loadReferenceTranscripts();

describe("health bodies match kube-apiserver 1.26 byte for byte", () => {
  const ids = [
    "health-healthz",
    "health-livez",
    "health-readyz",
    "health-healthz-verbose",
    "health-livez-verbose",
    "health-readyz-verbose",
    "health-readyz-verbose-exclude",
    "health-readyz-exclude-unknown",
    "health-livez-ping",
    "health-readyz-etcd",
    "health-readyz-unknown-check",
    "health-readyz-anonymous",
  ];
  it.each(ids)("%s", (id) => {
    const transcript = transcriptById(transcripts, id);
    const answer = get(stateFor().state, transcript.request.path);
    expect(answer.status).toBe(transcript.response.status);
    expect(answer.contentType).toBe(transcript.response.headers["content-type"]);
    expect(answer.body).toBe(transcript.response.body.text);
  });

  it("lists the checks of each endpoint in the transcripts' order", () => {
    for (const endpoint of healthEndpoints) {
      const text = transcriptById(transcripts, `health-${endpoint}-verbose`).response.body.text!;
      const names = [...text.matchAll(/^\[\+\](.*) ok$/gm)].map((match) => match[1]);
      expect(healthChecks(kubernetes, endpoint).map((check) => check.name)).toEqual(names);
    }
  });
});

describe("check registry", () => {
  it.each([orb, kubernetes])("agrees with dialect $name: store check, readiness-only checks, healthz = livez", (dialect) => {
    const names = (endpoint: "healthz" | "livez" | "readyz") => healthChecks(dialect, endpoint).map((check) => check.name);
    expect(names("healthz")).toEqual(names("livez"));
    expect(names("livez")).toContain(dialect.health.persistenceCheck);
    expect(names("readyz").filter((name) => !names("livez").includes(name))).toEqual(dialect.health.readinessOnlyChecks);
    expect(names("readyz").at(-1)).toBe("shutdown");
    expect(new Set(healthCheckNames(dialect)).size).toBe(healthCheckNames(dialect).length);
  });

  it("orb holds the names doc 1 §4.5.4 gives, in Kubernetes' order", () => {
    expect(healthChecks(orb, "readyz").map((check) => check.name)).toEqual([
      "ping",
      "log",
      "persistence",
      "poststarthook/generic-apiserver-start-informers",
      "poststarthook/crd-informer-synced",
      "poststarthook/bootstrap-controller",
      "poststarthook/rbac/bootstrap-roles",
      "poststarthook/scheduling/bootstrap-system-priority-classes",
      "autoregister-completion",
      "shutdown",
    ]);
  });

  it("marks post-start hooks and autoregister-completion as start-up checks", () => {
    const boot = healthChecks(kubernetes, "livez").filter((check) => check.bootSequence).map((check) => check.name);
    expect(boot).toContain("autoregister-completion");
    expect(boot.every((name) => name.startsWith("poststarthook/") || name === "autoregister-completion")).toBe(true);
    expect(boot).not.toContain("etcd");
  });
});

describe("orb dialect", () => {
  it("ends every verbose body with `healthz check passed` (doc 1 §4.5.2) and names the store `persistence`", () => {
    const sim = new Simulation({ seed: "orb", epochMs: 0 });
    const state = new HealthState({ dialect: orb, clock: sim });
    for (const endpoint of healthEndpoints) {
      const answer = get(state, `/${endpoint}?verbose`);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("[+]ping ok\n[+]log ok\n[+]persistence ok\n");
      expect(answer.body.endsWith("\nhealthz check passed\n")).toBe(true);
    }
    expect(get(state, "/readyz/persistence")).toEqual({ status: 200, contentType: "text/plain; charset=utf-8", body: "ok" });
    expect(get(state, "/readyz/etcd").status).toBe(404);
  });

  it("says `healthz check failed` on a failing endpoint", () => {
    const sim = new Simulation({ seed: "orb", epochMs: 0 });
    const state = new HealthState({ dialect: orb, clock: sim, failChecks: ["persistence"] });
    const answer = get(state, "/livez");
    expect(answer.status).toBe(500);
    expect(answer.body).toContain("[-]persistence failed: reason withheld\n");
    expect(answer.body.endsWith("\nhealthz check failed\n")).toBe(true);
  });
});

describe("failing checks (serve --fail-check)", () => {
  it("fail every endpoint that runs the check, verbose or not, with the reason withheld", () => {
    const { state } = stateFor({ failChecks: ["etcd"] });
    for (const endpoint of healthEndpoints) {
      const passing = get(stateFor().state, `/${endpoint}?verbose`).body;
      const expected = passing.replace("[+]etcd ok\n", "[-]etcd failed: reason withheld\n").replace(/check passed\n$/, "check failed\n");
      for (const query of ["", "?verbose"]) {
        const answer = get(state, `/${endpoint}${query}`);
        expect(answer.status).toBe(500);
        expect(answer.contentType).toBe("text/plain; charset=utf-8");
        expect(answer.body).toBe(expected);
        expect(answer.body.endsWith(`${endpoint} check failed\n`)).toBe(true);
      }
    }
  });

  it("answer the single-check path with 500 and the reason, other checks still ok", () => {
    const { state } = stateFor({ failChecks: ["poststarthook/rbac/bootstrap-roles"] });
    expect(get(state, "/readyz/poststarthook/rbac/bootstrap-roles")).toEqual({
      status: 500,
      contentType: "text/plain; charset=utf-8",
      body: "internal server error: failing on purpose (--fail-check)\n",
    });
    expect(get(state, "/readyz/ping").body).toBe("ok");
  });

  it("excluding the failing check makes the endpoint pass", () => {
    const { state } = stateFor({ failChecks: ["etcd"] });
    expect(get(state, "/readyz?exclude=etcd")).toMatchObject({ status: 200, body: "ok" });
    expect(get(state, "/readyz?verbose&exclude=etcd").body).toContain("[+]etcd excluded: ok\n");
  });

  it("can be turned off again", () => {
    const { state } = stateFor({ failChecks: ["log"] });
    expect(state.failingChecks).toEqual(["log"]);
    state.passCheck("log");
    expect(get(state, "/healthz").status).toBe(200);
  });

  it("rejects a name no endpoint runs, listing the known ones", () => {
    expect(() => stateFor({ failChecks: ["persistence"] })).toThrow(/unknown health check "persistence" for dialect kubernetes: expected one of ping, log, etcd/);
  });
});

describe("exclude", () => {
  it("warns about every unmatched name, sorted and quoted, before the last line; silent when not verbose", () => {
    const { state } = stateFor();
    const answer = get(state, "/livez?verbose&exclude=zeta&exclude=ping&exclude=alpha&exclude=shutdown");
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("[+]ping excluded: ok\n");
    // shutdown is a readyz check only, so on livez it matches nothing.
    expect(answer.body.endsWith('warn: some health checks cannot be excluded: no matches for "alpha","shutdown","zeta"\nlivez check passed\n')).toBe(
      true,
    );
    expect(get(state, "/livez?exclude=bogus").body).toBe("ok");
  });

  it("keeps the warning in a failing body", () => {
    const { state } = stateFor({ failChecks: ["ping"] });
    expect(get(state, "/healthz?exclude=bogus").body.endsWith('no matches for "bogus"\nhealthz check failed\n')).toBe(true);
  });
});

describe("single-check paths", () => {
  it("404 for names the endpoint does not run, and for the bare trailing slash", () => {
    const { state } = stateFor();
    const notFound = { status: 404, contentType: "text/plain; charset=utf-8", body: "404 page not found\n" };
    expect(get(state, "/livez/shutdown")).toEqual(notFound);
    expect(get(state, "/livez/etcd-readiness")).toEqual(notFound);
    expect(get(state, "/readyz/")).toEqual(notFound);
    expect(get(state, "/healthz/poststarthook")).toEqual(notFound);
    expect(get(state, "/healthz/ping")).toEqual({ status: 200, contentType: "text/plain; charset=utf-8", body: "ok" });
    expect(get(state, "/readyz/shutdown?verbose").body).toBe("ok");
  });

  it("parseHealthPath names endpoint and check, and nothing else", () => {
    expect(parseHealthPath("/readyz")).toEqual({ endpoint: "readyz", checkName: undefined });
    expect(parseHealthPath("/livez/poststarthook/rbac/bootstrap-roles")).toEqual({ endpoint: "livez", checkName: "poststarthook/rbac/bootstrap-roles" });
    expect(parseHealthPath("/readyzz")).toBeUndefined();
    expect(parseHealthPath("/api/v1")).toBeUndefined();
  });
});

describe("shutdown", () => {
  it("fails readyz at once, keeps livez and healthz passing, and closes after the delay", async () => {
    const { state, sim } = stateFor({ shutdownDelayMs: 5_000 });
    let closedAt: number | undefined;
    state.beginShutdown(() => (closedAt = sim.nowMs()));
    state.beginShutdown(() => {
      throw new Error("a second SIGTERM must not schedule a second close");
    });
    const readyz = get(state, "/readyz?verbose");
    expect(readyz.status).toBe(500);
    expect(readyz.body.endsWith("[-]shutdown failed: reason withheld\nreadyz check failed\n")).toBe(true);
    expect(get(state, "/readyz/shutdown")).toMatchObject({ status: 500, body: "internal server error: process is shutting down\n" });
    expect(get(state, "/livez").status).toBe(200);
    expect(get(state, "/healthz").status).toBe(200);

    await sim.run({ untilMs: sim.nowMs() + 4_999 });
    expect(closedAt).toBeUndefined();
    await sim.run({ untilMs: sim.nowMs() + 1 });
    expect(closedAt).toBe(state.startedAtMs + 5_000);
  });

  it("closes on the next turn with the default delay of 0s", async () => {
    const { state, sim } = stateFor();
    let closed = false;
    state.beginShutdown(() => (closed = true));
    expect(state.shuttingDown).toBe(true);
    expect(closed).toBe(false);
    await sim.run();
    expect(closed).toBe(true);
  });
});

describe("livez grace period", () => {
  it("ignores failing start-up checks on livez only, and only while it runs", async () => {
    const { state, sim } = stateFor({ livezGracePeriodMs: 10_000, failChecks: ["poststarthook/bootstrap-controller"] });
    expect(state.inLivezGracePeriod).toBe(true);
    expect(get(state, "/livez")).toMatchObject({ status: 200, body: "ok" });
    expect(get(state, "/livez/poststarthook/bootstrap-controller").body).toBe("ok");
    expect(get(state, "/healthz").status).toBe(500);
    expect(get(state, "/readyz").status).toBe(500);

    await sim.run({ untilMs: sim.nowMs() + 10_000 });
    expect(state.inLivezGracePeriod).toBe(false);
    expect(get(state, "/livez").status).toBe(500);
    expect(get(state, "/livez/poststarthook/bootstrap-controller").status).toBe(500);
  });

  it("does not cover ping, log or the store", () => {
    const { state } = stateFor({ livezGracePeriodMs: 10_000, failChecks: ["etcd"] });
    expect(get(state, "/livez").status).toBe(500);
  });

  it("with the default of 0s there is no grace at all", () => {
    const { state } = stateFor({ failChecks: ["autoregister-completion"] });
    expect(get(state, "/livez").status).toBe(500);
  });
});
