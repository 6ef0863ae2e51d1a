/**
 * Every command of the CLI, in the order `--help` lists them. Modules load only when their
 * command runs, so `--help` and light commands do not pay for heavy ones (client libraries).
 */
import type { CliCommand } from "../cli-command.ts";

/** A registered command: what `--help` shows, and how to load it. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  load(): Promise<CliCommand>;
}

/** The registered commands. */
export const commands: readonly CommandEntry[] = [
  {
    name: "conformance",
    summary: "run the conformance suite of doc 1 against the embedded server or a real endpoint",
    load: async () => (await import("./conformance.ts")).conformanceCommand,
  },
  {
    name: "report",
    summary: "regenerate a report (junit, md, html, json) from a results.json",
    load: async () => (await import("./report.ts")).reportCommand,
  },
  {
    name: "record",
    summary: "send the requests of the reference transcripts to a server and write its answers in their shape",
    load: async () => (await import("./record.ts")).recordCommand,
  },
  {
    name: "serve",
    summary: "run the embedded API server (doc 1) for kubectl and client libraries",
    load: async () => (await import("./serve.ts")).serveCommand,
  },
  {
    name: "bench",
    summary: "benchmarks in fresh processes (kernel, simulation, store, server, suite, history, fuzz), beside a real kube-apiserver if given",
    load: async () => (await import("./bench.ts")).benchCommand,
  },
  {
    name: "fuzz",
    summary: "fuzz the in-memory model with fast-check; print failures with a replay command",
    load: async () => (await import("./fuzz.ts")).fuzzCommand,
  },
  {
    name: "load",
    summary: "watch fan-out under load: 1,000 watchers, writers at full speed, slow readers; checks order, loss, rate and memory",
    load: async () => (await import("./load.ts")).loadCommand,
  },
  {
    name: "soak",
    summary: "a seeded concurrent workload (writers, watchers, readers) against any server; its recorded history checked against doc 1's rules",
    load: async () => (await import("./soak.ts")).soakCommand,
  },
  {
    name: "simulate",
    summary: "run a control-plane scenario (leader election, node eviction) with faults in virtual time; check invariants; write a report",
    load: async () => (await import("./simulate.ts")).simulateCommand,
  },
  {
    name: "selfcheck",
    summary: "the suite's own teeth: plant each known defect in the embedded server, run the suite and the fuzzer against it, print the mutation score",
    load: async () => (await import("./selfcheck.ts")).selfcheckCommand,
  },
  {
    name: "validate",
    summary: "validate controller manager / scheduler flags (doc 2) or a node agent / credential provider file (doc 3)",
    load: async () => (await import("./validate.ts")).validateCommand,
  },
  {
    name: "match-image",
    summary: "show which credential providers match an image and in what order their results combine",
    load: async () => (await import("./match-image.ts")).matchImageCommand,
  },
];
