/**
 * orb-harness as a library: `import { startEmbeddedServer } from "orb-harness"`. The package's one
 * entry point (package.json `exports`); compiled to dist/scripts/library/index.js with its
 * declarations by `npm pack` (tsconfig.build.json). Every export is existing code, re-exported or
 * wired in scripts/library/; nothing here is used by the rest of the repository.
 */

// The embedded API server.
/** Starts the embedded API server on a 127.0.0.1 port; gives its URL, a kubeconfig (text and file) and `stop()`. */
export { startEmbeddedServer } from "./embedded-server.ts";
/** Makes the embedded API server without a socket: its `(Request) => Promise<Response>` handler. */
export { createEmbeddedServer } from "./embedded-server.ts";
/** Options and handles of the two functions above. */
export type { EmbeddedAuthOptions, EmbeddedServer, EmbeddedServerOptions, InProcessEmbeddedServer, StartEmbeddedServerOptions, TokenUser } from "./embedded-server.ts";
/** The server itself (doc 1 over an MVCC store), for wiring of your own. */
export { ApiServer, type ApiServerOptions } from "../../sim/apiserver/api-server.ts";
/** The two dialects (`kubernetes`, `orb`): names, media types, namespaces, by name. */
export { dialectByName, type Dialect, type DialectName } from "../../spec/dialects.ts";
/** The catalog of bugs the server can be told to have (`defects` option), with the clauses each breaks. */
export { defects, type Defect, type DefectName } from "../../sim/apiserver/defects/defects.ts";
/** Reads and checks a PEM certificate and key for the `tls` option. */
export { readTlsFiles, TlsFilesError, type TlsCredentials } from "../../sim/transport/tls-files.ts";

// A real control plane from binaries (envtest's KUBEBUILDER_ASSETS layout).
/** Starts etcd, kube-apiserver and (when present) kube-controller-manager from a directory; gives URL, token, CA, kubeconfig and `stop()`. */
export { startKubeControlPlane, type KubeControlPlane, type KubeControlPlaneOptions } from "../../conformance/control-plane/kube-control-plane.ts";
/** Why a control plane could not start (a missing binary, one that exits early); the message is one line. */
export { ControlPlaneError } from "../../conformance/control-plane/kube-assets.ts";

// The conformance suite of doc 1.
/** Runs the conformance suite against the embedded server or any server; resolves with the results. */
export { runConformanceSuite, type ConformanceSuiteOptions, type ConformanceSuiteResult } from "./conformance-suite.ts";
/** Every conformance case, in the suite's order (id, clauses, tags). */
export { allCases as conformanceCases } from "../../conformance/cases/index.ts";
/** One case of the suite. */
export type { CaseTag, ConformanceCase } from "../../conformance/case-definition.ts";
/** What to run the suite against (embedded, remote server or kubeconfig, kube-assets). */
export type { TargetChoice } from "../../conformance/run-conformance.ts";
/** A run's canonical results (results.json) and one case's result. */
export type { CaseResult, CaseStatus, RunResults } from "../../conformance/results.ts";
/** Writes results.json, junit.xml, summary.md and report.html for a run into a directory. */
export { writeReports } from "../../reports/write-reports.ts";

// The MVCC store.
/** The object store: one global revision, retained versions, watches, compaction, signed continue tokens. */
export { MvccStore } from "../../sim/store/mvcc-store.ts";
/** The store's options, reads, pages, watch options and write preconditions. */
export type { ListOptions, ListResult, MvccStoreOptions, WatchOptions, WritePreconditions } from "../../sim/store/mvcc-store.ts";
/** A stored object, and the metadata the store reads and sets. */
export type { ObjectMeta, StoredObject } from "../../sim/store/stored-object.ts";
/** A store watch, and its events. */
export { Watch, type WatchEvent, type WatchEventType } from "../../sim/store/watch.ts";
/** Keys of the store (`/type/namespace/name`). */
export { collectionPrefix, encodeKey, type ObjectKey } from "../../sim/store/object-key.ts";
/** How the store writes resourceVersions (decimal by default). */
export { decimalResourceVersions, type ResourceVersionCodec } from "../../sim/store/resource-version.ts";
/** Compacts a store's history on a clock. */
export { startCompactor } from "../../sim/store/compactor.ts";
/** The store's typed failures (not found, exists, conflict, expired, bad continue token, future revision). */
export { AlreadyExistsError, ConflictError, ExpiredError, InvalidContinueTokenError, NotFoundError, StoreError, TooLargeResourceVersionError } from "../../sim/store/errors.ts";

// Time and randomness.
/** Virtual time: an event queue run with `run`/`runFor`; the `clock` of a deterministic server or scenario. */
export { Simulation, type SimulationOptions } from "../../sim/kernel/simulation.ts";
/** The wall clock, for a store or server in real time. */
export { realClock } from "../../sim/kernel/real-clock.ts";
/** The clock interface both implement. */
export type { Clock, TimerHandle } from "../../sim/kernel/clock.ts";
/** Seeded randomness with named sub-streams. */
export { Rng } from "../../sim/kernel/rng.ts";

// The control-plane simulations (sim/scenarios).
/** Leader election (doc 2 §2.2): candidates compete for a lock through the embedded server in virtual time, under faults; checked. */
export { runLeaderElectionScenario, type LeaderElectionScenarioOptions } from "../../sim/scenarios/leader-election-scenario.ts";
/** Node eviction (doc 2 §2.4, doc 3): node agents, the node lifecycle controller and its taint manager in virtual time; checked. */
export { runNodeEvictionScenario, type NodeEvictionScenarioOptions } from "../../sim/scenarios/node-eviction-scenario.ts";
/** A finished scenario: verdicts, trace hash, history, summary. */
export type { ScenarioName, ScenarioResult } from "../../sim/scenarios/scenario-result.ts";
/** Scenario parameters from the documents' defaults, overridden by doc 2 flags or doc 3 fields. */
export { agentParameters, electionParameters, lifecycleParameters } from "../../sim/scenarios/scenario-parameters.ts";
/** Fault schedules in their text form (`pause:leader@40s+20s`), both ways. */
export { formatFaultSpec, parseFaultSpec, FaultSpecError } from "../../sim/faults/fault-spec.ts";
/** One scheduled fault. */
export type { Fault } from "../../sim/faults/fault-schedule.ts";
/** An invariant's verdict: held, or violated with a witness. */
export type { Verdict } from "../../sim/invariants/verdict.ts";
