/**
 * Go's `path/filepath.Match` on Linux, which the node agent uses to match one registry domain
 * segment against one glob segment (doc 3 §2.2): `*` any run of non-`/` characters, `?` one
 * non-`/` character, `[a-z]` / `[^a-z]` classes, `\` escapes. A malformed pattern is an error
 * (Go's ErrBadPattern), reported even when the match already failed, as Go does.
 */

/** Go's `filepath.ErrBadPattern`. */
export class BadPatternError extends Error {
  constructor() {
    super("syntax error in pattern");
  }
}

const SEPARATOR = "/";

/** Whether `name` matches the shell pattern `pattern`, as Go's filepath.Match; throws BadPatternError. */
export function goFilepathMatch(pattern: string, name: string): boolean {
  let rest = [...pattern];
  let subject = [...name];
  patterns: while (rest.length > 0) {
    const { star, chunk, remaining } = scanChunk(rest);
    rest = remaining;
    if (star && chunk.length === 0) return !subject.includes(SEPARATOR);
    const direct = matchChunk(chunk, subject);
    if (direct !== undefined && (direct.length === 0 || rest.length > 0)) {
      subject = direct;
      continue;
    }
    if (star) {
      for (let skip = 0; skip < subject.length && subject[skip] !== SEPARATOR; skip++) {
        const after = matchChunk(chunk, subject.slice(skip + 1));
        if (after === undefined) continue;
        if (rest.length === 0 && after.length > 0) continue;
        subject = after;
        continue patterns;
      }
    }
    // Before answering no, Go checks that the rest of the pattern is well formed.
    while (rest.length > 0) {
      const next = scanChunk(rest);
      rest = next.remaining;
      matchChunk(next.chunk, []);
    }
    return false;
  }
  return subject.length === 0;
}

function scanChunk(pattern: readonly string[]): { star: boolean; chunk: string[]; remaining: string[] } {
  let start = 0;
  while (start < pattern.length && pattern[start] === "*") start++;
  let inRange = false;
  let index = start;
  for (; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "\\") {
      if (index + 1 < pattern.length) index++;
    } else if (char === "[") inRange = true;
    else if (char === "]") inRange = false;
    else if (char === "*" && !inRange) break;
  }
  return { star: start > 0, chunk: pattern.slice(start, index), remaining: pattern.slice(index) };
}

// Matches `chunk` (no unescaped stars outside classes) at the start of `subject`; returns what is
// left of the subject, or undefined when it does not match. Throws BadPatternError.
function matchChunk(chunkIn: readonly string[], subjectIn: readonly string[]): string[] | undefined {
  let chunk = [...chunkIn];
  let subject = [...subjectIn];
  let failed = false;
  while (chunk.length > 0) {
    if (!failed && subject.length === 0) failed = true;
    const head = chunk[0]!;
    if (head === "[") {
      const char = failed ? "" : subject.shift()!;
      const parsed = matchClass(chunk.slice(1), char);
      chunk = parsed.rest;
      if (parsed.matched === parsed.negated) failed = true;
    } else if (head === "?") {
      if (!failed) {
        if (subject[0] === SEPARATOR) failed = true;
        subject.shift();
      }
      chunk.shift();
    } else {
      if (head === "\\") {
        chunk.shift();
        if (chunk.length === 0) throw new BadPatternError();
      }
      if (!failed) {
        if (chunk[0] !== subject[0]) failed = true;
        subject.shift();
      }
      chunk.shift();
    }
  }
  return failed ? undefined : subject;
}

function matchClass(chunkIn: readonly string[], char: string): { matched: boolean; negated: boolean; rest: string[] } {
  let chunk = [...chunkIn];
  const negated = chunk[0] === "^";
  if (negated) chunk.shift();
  let matched = false;
  for (let ranges = 0; ; ranges++) {
    if (chunk[0] === "]" && ranges > 0) {
      chunk.shift();
      break;
    }
    const low = escaped(chunk);
    chunk = low.rest;
    let high = low.char;
    if (chunk[0] === "-") {
      const upper = escaped(chunk.slice(1));
      chunk = upper.rest;
      high = upper.char;
    }
    if (char !== "" && low.char <= char && char <= high) matched = true;
  }
  return { matched, negated, rest: chunk };
}

// Go's getEsc: one possibly escaped character of a class; something must follow it.
function escaped(chunkIn: readonly string[]): { char: string; rest: string[] } {
  const chunk = [...chunkIn];
  if (chunk.length === 0 || chunk[0] === "-" || chunk[0] === "]") throw new BadPatternError();
  if (chunk[0] === "\\") {
    chunk.shift();
    if (chunk.length === 0) throw new BadPatternError();
  }
  const char = chunk.shift()!;
  if (chunk.length === 0) throw new BadPatternError();
  return { char, rest: chunk };
}
