/**
 * The rule of dialect-answers.ts: which forms a target of each dialect may answer with where doc 1
 * and Kubernetes part ways (issue #5). Checked on the rule itself, and on what a real
 * kube-apiserver 1.26 answered (spec/reference/kube-apiserver-1.26): the kubernetes dialect must accept every
 * recorded answer, and the orb dialect must refuse the ones that break doc 1.
 */
import { describe, expect, it } from "vitest";
import { dialectByName, deviations, type Dialect } from "../../../spec/dialects.ts";
import { loadReferenceTranscripts, transcriptById, transcriptJson } from "../../../spec/reference-transcripts.ts";
import { CaseFailure } from "../../case-outcome.ts";
import type { ApiResponse } from "../../client/conformance-client.ts";
import { fieldAt, recordOf } from "../../client/json-fields.ts";
import { checkRemovedAnswer } from "./delete-answers.ts";
import { acceptedForms, acceptedLastLines, checkAnswerForm, deviationIds, type DeviationId } from "./dialect-answers.ts";
import { itemsOf } from "./list-body.ts";
import { metadataOf } from "./object-body.ts";
import { detailsOf } from "./status-body.ts";

const orb = dialectByName("orb");
const kubernetes = dialectByName("kubernetes");

/** Strict for both dialects: one recorded answer each, and real servers agree. */
const STRICT: DeviationId[] = ["bare-dry-run", "put-missing", "delete-response", "delete-query-dry-run-with-body"];
/** Strict for orb (doc 1 is plain), every form for kubernetes (releases or the watch cache vary). */
const STRICT_FOR_ORB: DeviationId[] = ["watch-expired", "bookmark-object", "rv0-limit-ignored", "future-version-no-wait", "not-older-than-cache-lag"];
/** Doc 1 reads two ways: every form for everyone. */
const TOLERANT: DeviationId[] = ["continue-when-complete"];

describe("dialect answers", () => {
  it("cover exactly the recorded behaviour switches plus the three cache-dependent ones, each a recorded deviation", () => {
    expect([...deviationIds].sort()).toEqual([...STRICT, ...STRICT_FOR_ORB, ...TOLERANT].sort());
    expect([...deviationIds].sort()).toEqual([...Object.keys(orb.answers), "rv0-limit-ignored", "future-version-no-wait", "not-older-than-cache-lag"].sort());
    for (const id of deviationIds) expect(deviations.map((d) => d.id)).toContain(id);
  });

  it("hold each dialect to its own recorded answer where the entry is strict", () => {
    for (const id of STRICT) {
      expect(acceptedForms(orb, id), id).toEqual([orb.answers[id as keyof Dialect["answers"]]]);
      expect(acceptedForms(kubernetes, id), id).toEqual([kubernetes.answers[id as keyof Dialect["answers"]]]);
    }
    for (const id of STRICT_FOR_ORB) expect(acceptedForms(orb, id), id).toHaveLength(1);
    expect(acceptedForms(orb, "rv0-limit-ignored")).toEqual(["at-most-limit"]);
    expect(acceptedForms(orb, "future-version-no-wait")).toEqual(["waits"]);
    expect(acceptedForms(kubernetes, "future-version-no-wait")).toEqual(["waits", "answers-at-once"]);
    expect(acceptedForms(orb, "watch-expired")).toEqual(["status"]);
    expect(acceptedForms(orb, "bookmark-object")).toEqual(["resource-version-only"]);
  });

  it("accept every form where real servers vary or doc 1 reads two ways", () => {
    for (const id of [...STRICT_FOR_ORB, ...TOLERANT]) expect(acceptedForms(kubernetes, id), id).toHaveLength(2);
    expect([...acceptedForms(orb, "continue-when-complete")].sort()).toEqual(["empty", "omitted"]);
  });

  it("go by the dialect's name, not by the answers a target's dialect object claims", () => {
    const orbNamedKubernetesAnswers: Dialect = { ...orb, answers: kubernetes.answers, health: { ...orb.health, verboseLastLine: kubernetes.health.verboseLastLine } };
    for (const id of deviationIds) expect(acceptedForms(orbNamedKubernetesAnswers, id), id).toEqual(acceptedForms(orb, id));
    expect(acceptedLastLines(orbNamedKubernetesAnswers, "livez")).toEqual(["healthz check passed"]);
    expect(acceptedLastLines(kubernetes, "livez")).toEqual(["livez check passed"]);
  });

  it("fail with the deviation, the dialect and the accepted form named", () => {
    expect(() => checkAnswerForm(orb, "put-missing", "not-found", "PUT")).toThrow(CaseFailure);
    expect(() => checkAnswerForm(orb, "put-missing", "not-found", "PUT")).toThrow(/dialect orb must answer "create" \(deviation put-missing/);
    expect(() => checkAnswerForm(kubernetes, "put-missing", "not-found", "PUT")).not.toThrow();
  });

  it("say in the report's 'suite accepts' text how each dialect is held", () => {
    for (const id of [...STRICT, ...STRICT_FOR_ORB]) {
      const text = deviations.find((d) => d.id === id)!.suiteAccepts;
      expect(text, id).toMatch(/orb/);
      expect(text, id).toMatch(/kubernetes/);
    }
  });
});

const transcripts = loadReferenceTranscripts();

describe("dialect answers on the kube-apiserver 1.26 transcripts", () => {
  const get = (id: string) => transcriptById(transcripts, id);
  const json = (id: string): unknown => transcriptJson(get(id));
  const jsonLines = (id: string): unknown[] => (get(id).response.body.text ?? "").split("\n").filter((l) => l.trim() !== "").flatMap((l) => {
    try {
      return [JSON.parse(l) as unknown];
    } catch {
      return [];
    }
  });

  it("the recorded Kubernetes answers pass for kubernetes, and the ones breaking doc 1 fail for orb", () => {
    const recorded: Array<[DeviationId, string]> = [
      ["bare-dry-run", get("dryrun-bare").response.status === 422 ? "invalid" : "accept"],
      ["put-missing", get("update-missing").response.status === 404 ? "not-found" : "create"],
      ["delete-response", recordOf(json("delete-plain")).kind === "Status" ? "status-when-removed" : "object"],
      ["delete-query-dry-run-with-body", get("delete-options-c-query-dryrun-body-without-get-after").response.status === 404 ? "ignored" : "dry-run"],
      ["watch-expired", get("expiry-watch-old").response.status === 200 && recordOf(jsonLines("expiry-watch-old")[0]).type === "ERROR" ? "error-event" : "status"],
      ["rv0-limit-ignored", itemsOf(json("list-rv0-limit")).length > 2 ? "every-item" : "at-most-limit"],
      ["future-version-no-wait", get("expiry-get-rv-future-next").response.status === 504 && get("expiry-get-rv-future-next").response.headers["retry-after"] === undefined ? "answers-at-once" : "waits"],
      ["not-older-than-cache-lag", get("list-notolderthan-cache-lag").response.status === 504 ? "too-large" : "served"],
      ["continue-when-complete", metadataOf(json("list-unpaged")).continue === undefined ? "omitted" : "empty"],
      [
        "bookmark-object",
        Object.keys(recordOf(fieldAt(jsonLines("watch-from-rv").find((e) => recordOf(e).type === "BOOKMARK"), "object", "metadata"))).length > 1 ? "null-creation-timestamp" : "resource-version-only",
      ],
    ];
    expect(recorded.map(([, form]) => form)).toEqual(["invalid", "not-found", "status-when-removed", "ignored", "error-event", "every-item", "answers-at-once", "too-large", "omitted", "null-creation-timestamp"]);
    for (const [id, form] of recorded) {
      expect(() => checkAnswerForm(kubernetes, id, form as never, id), id).not.toThrow();
      if (id !== "continue-when-complete") expect(() => checkAnswerForm(orb, id, form as never, id), id).toThrow(CaseFailure);
    }
  });

  it("the DELETE case check passes the recorded Status for kubernetes and refuses it for orb", () => {
    const t = get("delete-plain");
    const text = t.response.body.text ?? "";
    const response: ApiResponse = { status: t.response.status, headers: new Headers(t.response.headers), bytes: new TextEncoder().encode(text), text, json: json("delete-plain") };
    const { name, uid } = detailsOf(json("delete-plain"));
    if (typeof name !== "string") throw new Error("transcript delete-plain: the Status names no object");
    expect(() => checkRemovedAnswer(kubernetes, response, "ConfigMap", name, uid, "delete-plain")).not.toThrow();
    expect(() => checkRemovedAnswer(orb, response, "ConfigMap", name, uid, "delete-plain")).toThrow(/dialect orb must answer "object"/);
  });

  it("the recorded last verbose lines pass for kubernetes only", () => {
    for (const endpoint of ["healthz", "livez", "readyz"] as const) {
      const last = (get(`health-${endpoint}-verbose`).response.body.text ?? "").trim().split("\n").at(-1);
      expect(acceptedLastLines(kubernetes, endpoint), endpoint).toContain(last);
      if (endpoint !== "healthz") expect(acceptedLastLines(orb, endpoint), endpoint).not.toContain(last);
    }
  });
});
