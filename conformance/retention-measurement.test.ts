/**
 * The time-dependent cases against a server that does not say how long it keeps versions (issue
 * #13): an embedded server on the real clock with a 1 s window and compaction every second,
 * reached as a remote target with --slow. The first case to need the retention measures it (one
 * wait, shared by the others), and every case then waits toward what was measured: all pass
 * within seconds, where the documented default would have cost minutes.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiServer } from "../sim/apiserver/api-server.ts";
import { socketAnswers } from "../sim/apiserver/responses/http-response.ts";
import { Rng } from "../sim/kernel/rng.ts";
import { realClock } from "../sim/kernel/real-clock.ts";
import { serveHttp } from "../sim/transport/http-server.ts";
import { dialectByName } from "../spec/dialects.ts";
import { allCases } from "./cases/index.ts";
import { ConformanceRun } from "./runner.ts";
import { connectRemoteTarget } from "./targets/remote-target.ts";
import type { Target } from "./targets/target.ts";

const RETENTION_CASES = [
  "paging/continue-token-expires-410",
  "paging/continue-token-valid-within-lifetime",
  "resource-version/exact-compacted-version-410",
  "watch/expired-version-410",
  "watch/history-retained-within-window",
];

let server: ApiServer;
let http: Awaited<ReturnType<typeof serveHttp>>;
let target: Target;

beforeAll(async () => {
  server = new ApiServer({
    clock: realClock,
    rng: new Rng("retention-measurement"),
    tokenKey: randomBytes(32),
    dialect: dialectByName("kubernetes"),
    build: { platform: "linux/amd64" },
    historyWindowMs: 1_000,
    compactionIntervalMs: 1_000,
  });
  http = await serveHttp(server.handle, { host: "127.0.0.1", port: 0, ...socketAnswers });
  target = await connectRemoteTarget({ server: http.url, credentials: {}, dialect: "kubernetes" });
});
afterAll(async () => {
  server.close();
  await http.close();
});

describe("a server whose retention nobody gave", () => {
  it("is measured once, and the time-dependent cases wait toward it and pass in seconds", async () => {
    const waits: string[] = [];
    const run = new ConformanceRun(target, {
      readOnly: false,
      slow: true,
      parallel: 5,
      caseTimeoutMs: 30_000,
      keepNamespaces: false,
      onCaseWaiting: (testCase, what) => waits.push(`${testCase.id}: ${what}`),
    });
    const started = performance.now();
    const results = await run.run(allCases.filter((testCase) => RETENTION_CASES.includes(testCase.id)));
    expect(results.map((result) => `${result.id} ${result.status} ${result.message}`).sort()).toEqual(RETENTION_CASES.map((id) => `${id} pass `).sort());
    expect(waits.filter((wait) => wait.includes("measuring its retention"))).toHaveLength(1);
    expect(waits.some((wait) => /\(measured\)/.test(wait))).toBe(true);
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
