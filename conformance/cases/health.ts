/**
 * Health endpoints (doc 1 §4.1, §4.5, §7): /healthz, /livez and /readyz answer 200 when healthy,
 * live or ready; `verbose` lists the checks as `[+]<check> ok` lines and a last line; `exclude`
 * marks a check `excluded: ok`; `/livez/<check>` and `/readyz/<check>` answer for one check.
 *
 * Nothing here writes, and no check name is hard-coded where the server can tell it: names come
 * from the verbose output. The last verbose line is the one the target's dialect records
 * (deviation health-last-line, dialect-answers.ts: doc 1 §4.5.2's `healthz check passed` for orb,
 * the endpoint's own `<endpoint> check passed` for Kubernetes). Where doc 1 is silent the cases
 * accept both: the persistence check's name (doc 1 §4.5.4 names none: `persistence` in the orb
 * dialect, `etcd` in Kubernetes).
 */
import type { CaseContext } from "../case-context.ts";
import { defineCases } from "../case-definition.ts";
import { check, checkEqual } from "../check.ts";
import { acceptedLastLines } from "./support/dialect-answers.ts";
import { checkHealthy, getHealth, HEALTH_ENDPOINTS, shown, type HealthEndpointName } from "./support/health-answers.ts";
import { q } from "./support/query.ts";

/** The endpoints with single-check paths (doc 1 §4.1, §4.5). */
const CHECK_ENDPOINTS = ["livez", "readyz"] as const;

/** Names of the persistence-layer check (doc 1 §4.5.4 gives none): the orb and the Kubernetes dialect's. */
const PERSISTENCE_CHECK_NAMES = ["persistence", "etcd"];

/** Checks doc 1 §4.5.4 names, other than the persistence check and `shutdown`. */
const LISTED_CHECKS = [
  "ping",
  "log",
  "autoregister-completion",
  "poststarthook/generic-apiserver-start-informers",
  "poststarthook/crd-informer-synced",
  "poststarthook/bootstrap-controller",
  "poststarthook/rbac/bootstrap-roles",
  "poststarthook/scheduling/bootstrap-system-priority-classes",
];

/** A name no server gives a check. */
const NO_SUCH_CHECK = "orb-conformance-no-such-check";

/** A verbose body, read: the check lines, anything else between them and the last line, and the last line. */
interface VerboseBody {
  /** Every line but the last. */
  readonly lines: readonly string[];
  /** Names of the `[+]<check> ok` lines, in order. */
  readonly passing: readonly string[];
  readonly lastLine: string;
}

function readVerbose(text: string): VerboseBody {
  const lines = text.split("\n");
  // A body ends with a newline (Kubernetes): the empty string after it is no line.
  if (lines.at(-1) === "") lines.pop();
  const lastLine = lines.pop() ?? "";
  const passing = lines.map((line) => /^\[\+\](.+) ok$/.exec(line)?.[1]).filter((name): name is string => name !== undefined && !name.endsWith(" excluded:"));
  return { lines, passing, lastLine };
}

/**
 * GET /<endpoint>?verbose<query>; checks 200 and the last line (doc 1 §4.5.2, deviation
 * health-last-line) and returns the body read.
 */
async function verbose(context: CaseContext, endpoint: HealthEndpointName, query = ""): Promise<VerboseBody> {
  const path = `/${endpoint}?verbose${query}`;
  const response = await getHealth(context, path);
  check(response.status === 200, `GET ${path}: expected 200, got ${response.status}: ${shown(response)}`);
  const body = readVerbose(response.text);
  // Strict (deviation health-last-line): one recorded last line per dialect, doc 1 §4.5.2's for orb.
  const accepted = acceptedLastLines(context.dialect, endpoint);
  check(
    accepted.includes(body.lastLine),
    `GET ${path}: the last line should be ${accepted.map((line) => JSON.stringify(line)).join(" or ")} for a target of dialect ${context.dialect.name} (doc 1 §4.5.2; deviation health-last-line), got ${JSON.stringify(body.lastLine)}`,
  );
  return body;
}

/** The checks /<endpoint>?verbose lists, every line checked to read `[+]<check> ok` (doc 1 §4.5.2). */
async function listedChecks(context: CaseContext, endpoint: HealthEndpointName): Promise<string[]> {
  const body = await verbose(context, endpoint);
  const odd = body.lines.filter((line) => !/^\[\+\].+ ok$/.test(line));
  check(odd.length === 0, `GET /${endpoint}?verbose: every line before the last should read "[+]<check> ok" (doc 1 §4.5.2), these do not: ${JSON.stringify(odd.slice(0, 5))}`);
  check(body.passing.length > 0, `GET /${endpoint}?verbose lists no check at all`);
  const repeated = body.passing.filter((name, index) => body.passing.indexOf(name) !== index);
  check(repeated.length === 0, `GET /${endpoint}?verbose lists checks more than once: ${JSON.stringify(repeated)}`);
  return [...body.passing];
}

/** The persistence-layer check among `checks`: `persistence` (orb) or `etcd` (Kubernetes). */
function persistenceCheck(checks: readonly string[]): string | undefined {
  return PERSISTENCE_CHECK_NAMES.find((name) => checks.includes(name));
}

export const healthCases = defineCases("health", [
  {
    name: "endpoints-answer-200",
    clauses: ["doc1/4.1/health/paths", "doc1/4.5/livez", "doc1/4.5/readyz", "doc1/4.5/status/200"],
    tags: [],
    async run(context) {
      for (const endpoint of HEALTH_ENDPOINTS) checkHealthy(await getHealth(context, `/${endpoint}`), `GET /${endpoint}`);
    },
  },
  {
    name: "status-agrees-with-the-checks",
    clauses: ["doc1/7/health/non-200", "doc1/4.5/status/200"],
    tags: [],
    async run(context) {
      // Doc 1 §7: a status other than 200 means not healthy. The converse that can be seen from
      // outside: the status of the plain and the verbose answer agree, and it is 200 exactly when
      // every check passes ([+]) and non-200 when a check failed ([-]).
      for (const endpoint of HEALTH_ENDPOINTS) {
        const plain = await getHealth(context, `/${endpoint}`);
        const detailed = await getHealth(context, `/${endpoint}?verbose`);
        checkEqual(detailed.status, plain.status, `status of GET /${endpoint}?verbose (the same health as GET /${endpoint})`);
        const failing = detailed.text.split("\n").filter((line) => line.startsWith("[-]"));
        if (detailed.status === 200) {
          check(failing.length === 0, `GET /${endpoint}?verbose answered 200 while listing failed checks: ${JSON.stringify(failing)}`);
        } else {
          check(failing.length > 0, `GET /${endpoint}?verbose answered ${detailed.status} (not healthy) without naming a failed check: ${shown(detailed)}`);
        }
      }
    },
  },
  {
    name: "verbose-lists-the-checks",
    clauses: ["doc1/4.5/verbose/line-format", "doc1/4.5/verbose/last-line", "doc1/4.2/verbose"],
    tags: [],
    async run(context) {
      for (const endpoint of HEALTH_ENDPOINTS) await listedChecks(context, endpoint);
    },
  },
  {
    name: "exclude-marks-the-check",
    clauses: ["doc1/4.5/exclude/line", "doc1/4.5/check/name-from-verbose", "doc1/4.5/verbose/last-line", "doc1/4.2/exclude"],
    tags: [],
    async run(context) {
      for (const endpoint of HEALTH_ENDPOINTS) {
        const checks = await listedChecks(context, endpoint);
        // A check the server itself names: the persistence check where there is one, else the last listed.
        const excluded = persistenceCheck(checks) ?? checks.at(-1)!;
        const body = await verbose(context, endpoint, `&exclude=${q(excluded)}`);
        const marked = body.lines.filter((line) => line === `[+]${excluded} excluded: ok`);
        checkEqual(marked.length, 1, `lines "[+]${excluded} excluded: ok" in GET /${endpoint}?verbose&exclude=${excluded} (doc 1 §4.5.3)`);
        check(!body.passing.includes(excluded), `GET /${endpoint}?verbose&exclude=${excluded} still lists "[+]${excluded} ok"`);
        checkEqual(body.passing, checks.filter((name) => name !== excluded), `the other checks of GET /${endpoint}?verbose&exclude=${excluded}, in order`);
      }
    },
  },
  {
    name: "exclude-of-no-check-warns",
    clauses: ["doc1/4.5/exclude/unknown", "doc1/4.5/verbose/last-line"],
    tags: [],
    async run(context) {
      // Gap doc1/4.5/exclude/unknown (transcript health-readyz-exclude-unknown): 200, every check as
      // usual, and a warning line naming the unmatched name just before the last line.
      for (const endpoint of HEALTH_ENDPOINTS) {
        const checks = await listedChecks(context, endpoint);
        const body = await verbose(context, endpoint, `&exclude=${q(NO_SUCH_CHECK)}`);
        checkEqual(body.passing, checks, `the checks of GET /${endpoint}?verbose&exclude=${NO_SUCH_CHECK} (nothing to exclude)`);
        const marked = body.lines.filter((line) => line.startsWith("[+]") && line.endsWith(" excluded: ok"));
        check(marked.length === 0, `GET /${endpoint}?verbose&exclude=${NO_SUCH_CHECK} marks a check excluded: ${JSON.stringify(marked)}`);
        const warning = body.lines.at(-1) ?? "";
        check(
          warning.startsWith("warn:") && warning.includes(`"${NO_SUCH_CHECK}"`),
          `GET /${endpoint}?verbose&exclude=${NO_SUCH_CHECK}: the line before the last should be a warning naming "${NO_SUCH_CHECK}" (Kubernetes: warn: some health checks cannot be excluded: no matches for "${NO_SUCH_CHECK}"), got ${JSON.stringify(warning)}`,
        );
      }
    },
  },
  {
    name: "single-check-paths",
    clauses: ["doc1/4.1/health/check-paths", "doc1/4.5/check/one", "doc1/4.5/check/name-from-verbose"],
    tags: [],
    async run(context) {
      // Every name between [+] and ok is a path below the endpoint (doc 1 §4.5 table).
      // Every path is tried, and all that fail are reported together, grouped by answer.
      const failed = new Map<string, string[]>();
      let tried = 0;
      for (const endpoint of CHECK_ENDPOINTS) {
        for (const name of await listedChecks(context, endpoint)) {
          tried++;
          const path = `/${endpoint}/${name}`;
          const response = await getHealth(context, path);
          if (response.status === 200 && /\bok\b/i.test(response.text)) continue;
          const answer = `${response.status} ${shown(response)}`;
          failed.set(answer, [...(failed.get(answer) ?? []), path]);
        }
      }
      const count = [...failed.values()].reduce((sum, paths) => sum + paths.length, 0);
      check(
        count === 0,
        `${count} of ${tried} single-check paths named by the verbose output do not answer 200 ok (doc 1 §4.5): ${[...failed].map(([answer, paths]) => `${answer} for ${paths.join(", ")}`).join("; ")}`,
      );
    },
  },
  {
    name: "unknown-check-is-404",
    clauses: ["doc1/4.5/check/unknown"],
    tags: [],
    async run(context) {
      // Gap doc1/4.5/check/unknown (transcript health-readyz-unknown-check): 404.
      for (const endpoint of CHECK_ENDPOINTS) {
        const response = await getHealth(context, `/${endpoint}/${NO_SUCH_CHECK}`);
        checkEqual(response.status, 404, `status of GET /${endpoint}/${NO_SUCH_CHECK} (no such check; body ${shown(response)})`);
      }
    },
  },
  {
    name: "listed-check-names",
    clauses: ["doc1/4.5/check-names/listed", "doc1/4.5/check/one"],
    tags: [],
    async run(context) {
      const byEndpoint = new Map<HealthEndpointName, string[]>();
      for (const endpoint of HEALTH_ENDPOINTS) byEndpoint.set(endpoint, await listedChecks(context, endpoint));
      // ping, log and the persistence layer are checked by every endpoint.
      for (const [endpoint, checks] of byEndpoint) {
        const missing = ["ping", "log"].filter((name) => !checks.includes(name));
        check(missing.length === 0, `GET /${endpoint}?verbose does not list ${missing.join(" and ")} (doc 1 §4.5.4)`);
        check(
          persistenceCheck(checks) !== undefined,
          `GET /${endpoint}?verbose lists no check on the persistence layer (doc 1 §4.5.4; named ${PERSISTENCE_CHECK_NAMES.map((name) => JSON.stringify(name)).join(" or ")}), only ${JSON.stringify(checks)}`,
        );
      }
      // The full list of doc 1 §4.5.4 on readiness, which runs every check.
      const ready = byEndpoint.get("readyz")!;
      const missing = LISTED_CHECKS.filter((name) => !ready.includes(name));
      check(missing.length === 0, `GET /readyz?verbose does not list these checks doc 1 §4.5.4 names: ${JSON.stringify(missing)}`);
      const store = persistenceCheck(ready)!;
      checkHealthy(await getHealth(context, `/readyz/${store}`), `GET /readyz/${store} (the persistence check, transcript health-readyz-etcd)`);
      checkHealthy(await getHealth(context, "/livez/ping"), "GET /livez/ping (transcript health-livez-ping)");
    },
  },
  {
    name: "shutdown-is-a-readiness-check",
    clauses: ["doc1/4.5/check-names/shutdown-readiness", "doc1/4.5/check/one"],
    tags: [],
    async run(context) {
      check((await listedChecks(context, "readyz")).includes("shutdown"), "GET /readyz?verbose does not list the shutdown check (doc 1 §4.5.4: shutdown (readiness))");
      checkHealthy(await getHealth(context, "/readyz/shutdown"), "GET /readyz/shutdown");
      for (const endpoint of ["livez", "healthz"] as const) {
        check(!(await listedChecks(context, endpoint)).includes("shutdown"), `GET /${endpoint}?verbose lists shutdown, a readiness check (doc 1 §4.5.4; transcript health-${endpoint}-verbose)`);
      }
      const live = await getHealth(context, "/livez/shutdown");
      checkEqual(live.status, 404, `status of GET /livez/shutdown (shutdown is no liveness check; body ${shown(live)})`);
    },
  },
]);
