/**
 * The recorded answers of a real kube-apiserver 1.26 (spec/reference/kube-apiserver-1.26, test
 * fixtures kept in the repository), read so that tests can confirm the spec's Kubernetes values
 * against what the server really sent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One recorded request and the response the real server gave. */
export interface Transcript {
  readonly id: string;
  readonly note: string;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly headers: Readonly<Record<string, string>>;
    /** A JSON value, or a string sent as it is (`<N bytes>` stands for a body too large to keep). */
    readonly body?: unknown;
    /** Who sent it when not the administrator: `restricted user`, `unknown token`, `anonymous`. */
    readonly identity?: string;
  };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: { readonly text?: string; readonly base64?: string };
  };
}

/** Where the reference transcripts are: in the repository, so every test that reads them always runs. */
export const referenceDir = fileURLToPath(new URL("./reference/kube-apiserver-1.26/", import.meta.url));

/** The main set, in the order it was sent (what `orb-harness record` replays). */
export const MAIN_FILE = "transcripts.jsonl";
/** The set recorded with the watch cache off and a short compaction interval. */
export const EXPIRY_FILE = "transcripts-expiry.jsonl";
/** Single exchanges recorded later to show variances of real servers (spec/dialects.ts). */
export const VARIANCES_FILE = "transcripts-variances.jsonl";
/** ConfigMap creates and patches nested 1,000, 5,000 and 20,000 levels deep (issue #14; sim/fuzz/http/deep-bodies.ts builds them). */
export const NESTING_DEPTH_FILE = "transcripts-nesting-depth.jsonl";
/** Authentication and authorization bypass attempts (issue #14; sim/apiserver/auth/bypass-attempts.ts is the catalog). */
export const SECURITY_FILE = "transcripts-security.jsonl";
/** DELETEs with DeleteOptions in the query, the body or both, and the GET after each (deviation delete-query-dry-run-with-body). */
export const DELETE_OPTIONS_FILE = "transcripts-delete-options.jsonl";
/** Answers given before a request reaches the API: heads over 1 MiB, unknown methods, malformed requests (sim/transport/parser-refusals.ts). */
export const HTTP_PARSING_FILE = "transcripts-http-parsing.jsonl";
/** The scale subresource of Deployments, SelfSubjectRulesReview and SelfSubjectReview (sim/apiserver/handlers/scale-handler.test.ts, auth/reviews.test.ts). */
export const SCALE_AND_REVIEWS_FILE = "transcripts-scale-and-reviews.jsonl";

/** The transcripts of one file, in file order, repeated ids included. */
export function readTranscriptFile(path: string): Transcript[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Transcript);
}

/** Every transcript by id (the first of a repeated id wins); a missing file throws, as any broken fixture should. */
export function loadReferenceTranscripts(dir: string = referenceDir): ReadonlyMap<string, Transcript> {
  const byId = new Map<string, Transcript>();
  for (const file of [MAIN_FILE, EXPIRY_FILE, VARIANCES_FILE, NESTING_DEPTH_FILE, SECURITY_FILE, DELETE_OPTIONS_FILE]) {
    for (const transcript of readTranscriptFile(join(dir, file))) {
      if (!byId.has(transcript.id)) byId.set(transcript.id, transcript);
    }
  }
  return byId;
}

/** The transcript with this id; throws when the set lacks it, so a typo in an id fails loudly. */
export function transcriptById(transcripts: ReadonlyMap<string, Transcript>, id: string): Transcript {
  const found = transcripts.get(id);
  if (found === undefined) throw new Error(`no reference transcript "${id}"`);
  return found;
}

/** The response body of a transcript parsed as JSON (throws for binary or non-JSON bodies). */
export function transcriptJson(transcript: Transcript): unknown {
  const text = transcript.response.body.text;
  if (text === undefined) throw new Error(`transcript ${transcript.id} has a binary body`);
  return JSON.parse(text) as unknown;
}
