// Node flags the orb-harness bin and vitest's workers (tests and benchmarks) run with; the npm
// `simulate` script repeats them, since package.json cannot import this file.
// A large simulation makes millions of short-lived objects (lease renewals, promises) while it
// holds hundreds of MB of live state (150,000 pods): a large young generation lets more of them
// die young instead of being copied and promoted. Measured on the 2-core machine, one virtual hour
// of node eviction with 5,000 nodes and 150,000 pods: time compression 50.7x with the default and
// 65.5x with 64 MB (an early version of the simulation); later, in about 20 interleaved runs each,
// median 252x with 64 MB and 267x with 256 MB (ranges 190-281x and 202-316x: this machine's speed
// varies), garbage collection a median 1.9 s and 1.3 s of the hour, peak RSS 1.50 and 1.87 GB.
// Larger gained nothing: interleaved, 512 MB gave 234-244x and 1 GB 217-226x against 234-240x
// with 256 MB (issue 20's note of 2026-11-28). The embedded server's benchmarks were the same or
// better with 256 MB (unpaged list of 10,000 Pods 64-75 ms against 60-85 ms).
// V8 grows the young generation only in a process that allocates fast enough to need it: a small
// simulation's peak RSS is the same (about 150 MB) with either size, and `serve` after 12,000 Pod
// creates held 442 MB against 376 MB.
export const NODE_FLAGS = ["--max-semi-space-size=256"];
