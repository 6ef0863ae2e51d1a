import { describe, expect, it } from "vitest";
import { loadReferenceTranscripts, transcriptById } from "../reference-transcripts.ts";
import { clauseById } from "./clauses.ts";
import * as limitsModule from "./limits.ts";
import {
  compactionIntervalMs,
  continueTokenLifetimeMs,
  exampleLoad,
  historyWindowMs,
  limits,
  maxRequestBodyBytes,
  tooLargeResourceVersionRetryAfterSeconds,
} from "./limits.ts";

describe("doc 1 §8 limits", () => {
  it("retains 5 minutes of history and keeps continue tokens 5 minutes", () => {
    expect(historyWindowMs).toBe(300_000);
    expect(continueTokenLifetimeMs).toBe(300_000);
  });

  it("compacts at least once per retained window", () => {
    // History older than the window must go within one more compaction (doc 1 §8, 410 past it);
    // Kubernetes compacts every 5 minutes, the same as doc 1's window.
    expect(compactionIntervalMs).toBeLessThanOrEqual(historyWindowMs);
    expect(compactionIntervalMs).toBe(300_000);
  });

  it("keeps the example load consistent: tens of thousands of 2 KiB Pods make 10-20 MB", () => {
    expect(exampleLoad.podJsonBytes).toBe(2048);
    const podsFor = (bytes: number) => bytes / exampleLoad.podJsonBytes;
    expect(podsFor(exampleLoad.unpagedListMinBytes)).toBeGreaterThanOrEqual(1_000);
    expect(podsFor(exampleLoad.unpagedListMaxBytes)).toBeLessThan(100_000);
  });

  it("lists every exported number once, with its value and a clause that exists", () => {
    const names = limits.map((l) => l.name);
    expect(new Set(names).size).toBe(names.length);
    const exported = limitsModule as unknown as Record<string, unknown>;
    for (const limit of limits) {
      expect(exported[limit.name], limit.name).toBe(limit.value);
      clauseById(limit.clause);
      expect(limit.name.endsWith(limit.unit === "s" ? "Seconds" : limit.unit === "ms" ? "Ms" : limit.unit === "bytes" ? "Bytes" : "Inflight")).toBe(true);
    }
    const numeric = Object.entries(exported).filter(([, v]) => typeof v === "number").map(([k]) => k);
    expect(numeric.sort()).toEqual([...names].sort());
  });

  it("marks only the two §8 values as doc 1's own", () => {
    expect(limits.filter((l) => l.source === "doc1").map((l) => l.name)).toEqual(["historyWindowMs", "continueTokenLifetimeMs"]);
  });
});

const all = loadReferenceTranscripts();

describe("Kubernetes values against the 1.26 transcripts", () => {
  it("refuses bodies above maxRequestBodyBytes with 413", () => {
    const transcript = transcriptById(all, "body-too-large");
    expect(transcript.response.status).toBe(413);
    expect(transcript.response.body.text).toContain(`limit is ${maxRequestBodyBytes}`);
  });

  it("asks to retry a too-large resourceVersion after the recorded seconds", () => {
    expect(transcriptById(all, "list-rv-future").response.headers["retry-after"]).toBe(String(tooLargeResourceVersionRetryAfterSeconds));
  });
});
