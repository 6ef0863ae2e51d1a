/**
 * The rules every single answer must keep (issue #14), checked without knowing what the server
 * should have answered: it answers at all; no 5xx; an error body is a Status (JSON, YAML or
 * Protobuf, as negotiated) whose `code` is the HTTP status; a success body decodes in the media
 * type it claims. Breaking one is a finding unless counted-exceptions.ts documents it.
 */
import { parse as parseYaml } from "yaml";
import { decodeObject, hasProtobufPrefix } from "../../apiserver/protobuf/index.ts";
import { countedException, type Answer, type TargetKind } from "./counted-exceptions.ts";
import type { FuzzRequest } from "./fuzz-request.ts";

/** What the transport got back. */
export type Outcome = ({ readonly kind: "answer" } & Answer) | { readonly kind: "no-answer"; readonly why: string; readonly detail: string };

/** A broken rule. */
export interface Finding {
  readonly rule: string;
  /** One line: what is wrong. */
  readonly summary: string;
  /** Same signature, same finding (counted once, shrunk once). */
  readonly signature: string;
}

/** The verdict on one answer. */
export interface Judgement {
  readonly findings: readonly Finding[];
  /** Ids of the counted exceptions that applied. */
  readonly exceptions: readonly string[];
  /** The answer was an error with a well-formed Status body. */
  readonly statusBody: boolean;
}

/** The first characters of a body, as text (for messages and exception matching). */
export function bodyText(body: Uint8Array, max = 2_000): string {
  return Buffer.from(body.subarray(0, max)).toString("utf8");
}

/** Judges one answer. */
export function judgeAnswer(request: FuzzRequest, outcome: Outcome, target: TargetKind): Judgement {
  const findings: Finding[] = [];
  const exceptions: string[] = [];
  if (outcome.kind === "no-answer") {
    const exception = countedException("answers", request, undefined, "", target);
    if (exception !== undefined) exceptions.push(exception.id);
    else findings.push({ rule: "answers", summary: `no answer: ${outcome.detail}`, signature: `answers:${outcome.why}:${request.method}` });
    return { findings, exceptions, statusBody: false };
  }
  // Whole (up to 1 MiB): exceptions are matched on words that may come after a long quoted URI.
  const text = bodyText(outcome.body, 1 << 20);
  if (outcome.status < 100 || outcome.status > 599) {
    findings.push({ rule: "answers", summary: `malformed status line (status ${outcome.status})`, signature: "answers:malformed-status" });
    return { findings, exceptions, statusBody: false };
  }
  if (outcome.status >= 500) {
    const exception = countedException("no-5xx", request, outcome, text, target);
    if (exception !== undefined) exceptions.push(exception.id);
    else findings.push({ rule: "no-5xx", summary: `${outcome.status}: ${text.slice(0, 300)}`, signature: `no-5xx:${outcome.status}:${messageShape(text)}` });
  }
  let statusBody = false;
  if (outcome.status >= 400 && request.method !== "HEAD") {
    const problem = statusProblem(outcome);
    if (problem === undefined) statusBody = true;
    else {
      const exception = countedException("error-is-status", request, outcome, text, target);
      if (exception !== undefined) exceptions.push(exception.id);
      else findings.push({ rule: "error-is-status", summary: `${outcome.status} ${outcome.headers.get("content-type") ?? "(no content-type)"}: ${problem}: ${JSON.stringify(text.slice(0, 200))}`, signature: `error-is-status:${outcome.status}:${problem}` });
    }
  }
  if (outcome.status >= 200 && outcome.status < 300 && !outcome.cut && request.method !== "HEAD") {
    const problem = successProblem(outcome);
    if (problem !== undefined) findings.push({ rule: "success-decodes", summary: `${outcome.status} ${outcome.headers.get("content-type")}: ${problem}`, signature: `success-decodes:${outcome.headers.get("content-type")}` });
  }
  return { findings, exceptions, statusBody };
}

// A message without its specifics (names, numbers, quoted values), so one bug is one signature.
function messageShape(text: string): string {
  const message = /"message":\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? text;
  return message.slice(0, 80).replace(/"[^"]*"|\\"[^\\]*\\"|\d+/g, "_");
}

/** Why an error answer is not a Status carrying its own code, or undefined when it is one. */
function statusProblem(answer: Answer): string | undefined {
  const contentType = (answer.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  let status: unknown;
  try {
    if (contentType === "application/json") status = JSON.parse(bodyText(answer.body, Infinity));
    else if (contentType === "application/yaml") status = parseYaml(bodyText(answer.body, Infinity));
    else if (contentType.endsWith(".protobuf")) status = decodeObject(answer.body).object;
    else return answer.body.byteLength === 0 ? "empty body" : "not a Status media type";
  } catch {
    return `body does not decode as ${contentType}`;
  }
  const fields = (status ?? {}) as { kind?: unknown; apiVersion?: unknown; code?: unknown; status?: unknown };
  if (fields.kind !== "Status") return "kind is not Status";
  if (fields.code !== answer.status) return `Status code ${String(fields.code)}`;
  if (fields.status !== "Failure") return `status ${String(fields.status)}`;
  return undefined;
}

/** Why a complete success body does not decode in its media type, or undefined. */
function successProblem(answer: Answer): string | undefined {
  const contentType = (answer.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  try {
    if (contentType === "application/json") {
      // One document (perhaps indented), or a finished watch's JSON lines.
      const text = bodyText(answer.body, Infinity);
      try {
        JSON.parse(text);
      } catch {
        for (const line of text.split("\n")) if (line.trim() !== "") JSON.parse(line);
      }
    } else if (contentType === "application/yaml") {
      parseYaml(bodyText(answer.body, Infinity));
    } else if (contentType.endsWith(".protobuf") && answer.body.byteLength > 0 && !hasProtobufPrefix(answer.body) && !(answer.headers.get("content-type") ?? "").includes("stream=watch")) {
      return "no Protobuf prefix";
    }
  } catch (error) {
    return `does not decode: ${(error as Error).message.slice(0, 100)}`;
  }
  return undefined;
}
