/**
 * The record of what happened in a run, as canonical text lines whose sha256 identifies the run:
 * same seed and configuration ⇒ same hash, byte for byte (docs/ARCHITECTURE.md, "Determinism contract").
 *
 * A line is `${timeMs} ${actor} ${event} ${canonicalJson(details)}`. The hash is over all lines
 * joined by "\n" (no trailing newline) and is kept incrementally, so a long run need not keep its
 * lines in memory; they are kept only on request, for printing.
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "./canonical-json.ts";

/** Options of a `Trace`. */
export interface TraceOptions {
  /** Keep every line in memory so `lines()` can return them (default false: hash only). */
  keepLines?: boolean;
}

// Actor and event names are single tokens, so a line splits back into its four fields.
const TOKEN = /^[^\s]+$/;

// Lines reach the hash in chunks of about this many characters: one native update per chunk, not
// two per line (a 5,000-node hour records over a million lines). The sha256 of a byte stream does
// not depend on how it is cut, and the cuts fall between lines, so the hash is the same.
const CHUNK_CHARS = 1 << 16;

/** An append-only log of canonical event lines with a running sha256. */
export class Trace {
  readonly #hash: Hash = createHash("sha256");
  readonly #lines: string[] | undefined;
  #count = 0;
  #unhashed = "";

  /** Creates an empty trace; pass `{ keepLines: true }` to be able to print it. */
  constructor(options: TraceOptions = {}) {
    this.#lines = options.keepLines === true ? [] : undefined;
  }

  /** Number of lines recorded so far. */
  get count(): number {
    return this.#count;
  }

  /** Appends the line for `event` by `actor` at `timeMs`; `details` must be JSON (default `{}`). */
  record(timeMs: number, actor: string, event: string, details: unknown = {}): void {
    if (!Number.isFinite(timeMs)) throw new RangeError(`Trace.record: time must be finite, got ${timeMs}`);
    if (!TOKEN.test(actor)) throw new RangeError(`Trace.record: actor must be one non-empty token, got ${JSON.stringify(actor)}`);
    if (!TOKEN.test(event)) throw new RangeError(`Trace.record: event must be one non-empty token, got ${JSON.stringify(event)}`);
    const line = `${timeMs} ${actor} ${event} ${canonicalJson(details)}`;
    this.#unhashed += this.#count > 0 ? `\n${line}` : line;
    if (this.#unhashed.length >= CHUNK_CHARS) this.#hashUnhashed();
    this.#count++;
    this.#lines?.push(line);
  }

  /** Hex sha256 of all lines joined by "\n"; can be called at any time, any number of times. */
  hash(): string {
    this.#hashUnhashed();
    // digest() finalises a Hash, so digest a copy and keep the original open for more lines.
    return this.#hash.copy().digest("hex");
  }

  #hashUnhashed(): void {
    if (this.#unhashed === "") return;
    this.#hash.update(this.#unhashed);
    this.#unhashed = "";
  }

  /** The recorded lines; throws unless the trace was created with `{ keepLines: true }`. */
  lines(): readonly string[] {
    if (this.#lines === undefined) {
      throw new Error("Trace.lines: lines were not kept; create the Trace with { keepLines: true }");
    }
    // A copy, so a caller cannot edit the record the hash was computed from.
    return this.#lines.slice();
  }
}
