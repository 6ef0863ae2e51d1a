/**
 * The recorded answers of a real kube-apiserver 1.26 (../shared/reference/kube-apiserver-1.26),
 * read so that tests can confirm the spec's Kubernetes values against what the server really sent.
 * The directory lives outside the repository, so callers must cope with its absence.
 */
import { existsSync, readFileSync } from "node:fs";
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
    readonly identity?: string;
  };
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: { readonly text?: string; readonly base64?: string };
  };
}

/** Where the reference transcripts are expected: a sibling of the repository, as DESIGN.md says. */
export const referenceDir = fileURLToPath(new URL("../../shared/reference/kube-apiserver-1.26/", import.meta.url));

const FILES = ["transcripts.jsonl", "transcripts-expiry.jsonl"];

/** Every transcript by id (the first of a repeated id wins), or undefined when the files are absent. */
export function loadReferenceTranscripts(dir: string = referenceDir): ReadonlyMap<string, Transcript> | undefined {
  const paths = FILES.map((file) => join(dir, file));
  if (!paths.every((path) => existsSync(path))) return undefined;
  const byId = new Map<string, Transcript>();
  for (const path of paths) {
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const transcript = JSON.parse(line) as Transcript;
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
