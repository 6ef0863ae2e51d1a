/**
 * The run's seeded random numbers (see docs/ARCHITECTURE.md, "Determinism contract"): every random choice
 * inside sim/ is drawn from an `Rng`, never from `Math.random` or node:crypto.
 *
 * Generator: seedrandom's Alea (Baagøe), not its default ARC4. Alea is several times faster per
 * draw, which matters for fuzzers and large simulations; it is cheap to construct, which matters
 * because every `fork` builds a new generator; its state is four numbers; and it is reported to
 * pass BigCrush. ARC4's advantage, resistance to predicting the stream, buys nothing here: every
 * value is reproducible from the seed by design.
 */
import seedrandom from "seedrandom";

/** The alphabet of Kubernetes' generateName suffixes: no vowels (no words), no 0/1/3 (no confusables). */
export const NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

// Each byte's two hex digits, for uuid(): every create makes a uid, and formatting byte by byte was 0.7% of one.
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A deterministic random stream identified by its seed string; `fork` derives named sub-streams. */
export class Rng {
  /** The seed this stream was built from; forks append `/name`. */
  readonly seed: string;
  // Alea's state, seeded by seedrandom and stepped here by the same recurrence (see #next): the
  // same numbers, without two closure calls per draw through seedrandom's wrappers. A large
  // simulation draws two latencies per request, millions in an hour.
  #c: number;
  #s0: number;
  #s1: number;
  #s2: number;

  /** Builds the stream for `seed`; equal seeds give equal streams in every process. */
  constructor(seed: string) {
    if (typeof seed !== "string") throw new TypeError(`Rng seed must be a string, got ${typeof seed}`);
    this.seed = seed;
    const { c, s0, s1, s2 } = seedrandom.alea(seed, { state: true }).state();
    this.#c = c;
    this.#s0 = s0;
    this.#s1 = s1;
    this.#s2 = s2;
  }

  /**
   * Returns the independent stream `${seed}/${name}`. It depends only on the parent's seed, never
   * on how much the parent has drawn, and forking draws nothing from the parent: so adding draws
   * to one concern (say "faults") does not reshuffle another ("workload").
   */
  fork(name: string): Rng {
    if (name.length === 0) throw new RangeError("Rng.fork: name must not be empty");
    return new Rng(`${this.seed}/${name}`);
  }

  /** A float in [0, 1) with 53 random bits. */
  float(): number {
    // seedrandom's alea double(): the high bits from one step, 21 more from the next.
    return this.#next() + ((this.#next() * 0x200000) | 0) * 1.1102230246251565e-16; // 2^-53
  }

  /**
   * An integer in [minInclusive, maxInclusive], uniform up to a bias below 2^-20 for spans up to
   * 2^32 (53-bit float scaled and floored; exact rejection sampling is not worth its cost here).
   */
  int(minInclusive: number, maxInclusive: number): number {
    if (!Number.isSafeInteger(minInclusive) || !Number.isSafeInteger(maxInclusive)) {
      throw new RangeError(`Rng.int: bounds must be safe integers, got ${minInclusive}, ${maxInclusive}`);
    }
    const span = maxInclusive - minInclusive + 1;
    if (span < 1 || !Number.isSafeInteger(span)) {
      throw new RangeError(`Rng.int: empty or too wide range [${minInclusive}, ${maxInclusive}]`);
    }
    return minInclusive + Math.floor(this.float() * span);
  }

  /** True with probability `p` (default one half). */
  bool(p = 0.5): boolean {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`Rng.bool: p must be in [0, 1], got ${p}`);
    return this.float() < p;
  }

  /** One element of `items`, uniformly; throws on an empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Rng.pick: empty array");
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A shuffled copy of `items` (Fisher–Yates); the input is left untouched. */
  shuffle<T>(items: readonly T[]): T[] {
    const result = items.slice();
    for (let i = result.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const held = result[i] as T;
      result[i] = result[j] as T;
      result[j] = held;
    }
    return result;
  }

  /** An RFC 4122 version-4 UUID: 8-4-4-4-12 lowercase hex, version nibble 4, variant 8..b. */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = ((b[6] as number) & 0x0f) | 0x40;
    b[8] = ((b[8] as number) & 0x3f) | 0x80;
    let hex = "";
    for (const byte of b) hex += HEX_BYTES[byte];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** A generateName-style suffix of `length` characters from `NAME_SUFFIX_ALPHABET`. */
  nameSuffix(length = 5): string {
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new RangeError(`Rng.nameSuffix: length must be a non-negative integer, got ${length}`);
    }
    let suffix = "";
    for (let i = 0; i < length; i++) {
      suffix += NAME_SUFFIX_ALPHABET.charAt(this.int(0, NAME_SUFFIX_ALPHABET.length - 1));
    }
    return suffix;
  }

  /** An exponentially distributed duration with mean `meanMs` (inter-arrival times of a Poisson process). */
  exponential(meanMs: number): number {
    if (!(meanMs >= 0 && Number.isFinite(meanMs))) {
      throw new RangeError(`Rng.exponential: mean must be finite and >= 0, got ${meanMs}`);
    }
    // 1 - float() is in (0, 1], so the logarithm is finite.
    return -meanMs * Math.log(1 - this.float());
  }

  /**
   * `n` random bytes, e.g. a continue-token MAC key. They are reproducible from the seed, which
   * is the point inside a simulation; they are not a secret from anyone who knows the seed.
   */
  bytes(n: number): Uint8Array {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new RangeError(`Rng.bytes: n must be a non-negative integer, got ${n}`);
    }
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      // One 32-bit draw yields four bytes.
      const word = ((this.#next() * 0x100000000) | 0) >>> 0; // seedrandom's alea int32()
      for (let k = 0; k < 4 && i + k < n; k++) out[i + k] = (word >>> (8 * k)) & 0xff;
    }
    return out;
  }

  // One step of Alea (Baagøe), as seedrandom's alea takes it: a float in [0, 1) with 32 bits.
  #next(): number {
    const t = 2091639 * this.#s0 + this.#c * 2.3283064365386963e-10; // 2^-32
    this.#s0 = this.#s1;
    this.#s1 = this.#s2;
    this.#c = t | 0;
    this.#s2 = t - this.#c;
    return this.#s2;
  }
}
