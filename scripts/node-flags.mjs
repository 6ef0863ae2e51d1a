// Node flags the orb-harness bin and vitest's workers (tests and benchmarks) run with; the npm
// `simulate` script repeats them, since package.json cannot import this file.
// A large simulation makes millions of short-lived objects (lease renewals, promises) while it
// holds hundreds of MB of live state (150,000 pods): a large young generation lets most of them
// die young instead of being copied and promoted. Measured on the 2-core machine, quiet, one virtual
// hour of node eviction with 5,000 nodes and 150,000 pods (interleaved runs): time compression
// 50.7x with the default, 65.5x with 64 MB (an early version of the simulation); later, 247-269x
// with 64 MB, 264-316x with 256 MB (garbage collection 1.6-2.2 s -> 1.2-1.3 s of the hour, peak
// RSS 1.50 -> 1.87 GB), 272-282x with 512 MB (not worth another 430 MB). The embedded server's
// benchmarks were the same or better with 256 MB (unpaged list of 10,000 Pods 64-75 ms against 60-85).
// V8 grows the young generation to this size only in a process that allocates fast enough to need it.
export const NODE_FLAGS = ["--max-semi-space-size=256"];
