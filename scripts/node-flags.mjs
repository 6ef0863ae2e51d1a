// Node flags the orb-harness bin and vitest's workers (tests and benchmarks) run with; the npm
// `simulate` script repeats them, since package.json cannot import this file.
// A large simulation makes millions of short-lived objects (lease renewals, promises) while it
// holds hundreds of MB of live state (150,000 pods): a 64 MB young generation lets most of them
// die young instead of being copied and promoted, so collection stops dominating the run.
export const NODE_FLAGS = ["--max-semi-space-size=64"];
