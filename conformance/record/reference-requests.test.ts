/**
 * The request table stays faithful to the reference transcripts: rendered with the reference
 * run's namespace and with the values its own answers gave, every template is that run's request
 * byte for byte, in the same order.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAIN_FILE, readTranscriptFile, referenceDir } from "../../spec/reference-transcripts.ts";
import { capturedValues, RECORD_STEPS, TOO_LARGE_BODY_BYTES, type RecordValues, type RequestTemplate } from "./reference-requests.ts";
import { lineRequest, renderRequest } from "./transcript-line.ts";

const reference = readTranscriptFile(join(referenceDir, MAIN_FILE));

/** The templates in the order their lines are written: a watch's line comes when it is closed. */
function templatesInLineOrder(): RequestTemplate[] {
  const watches = new Map<string, RequestTemplate>();
  const ordered: RequestTemplate[] = [];
  for (const step of RECORD_STEPS) {
    if (step.kind === "send") ordered.push(step.request);
    if (step.kind === "open-watch") watches.set(step.request.id, step.request);
    if (step.kind === "close-watch") ordered.push(watches.get(step.id)!);
  }
  return ordered;
}

describe("the record request table", () => {
  it("has the reference's ids, in the reference's order", () => {
    expect(templatesInLineOrder().map((template) => template.id)).toEqual(reference.map((transcript) => transcript.id));
  });

  it("renders each reference request exactly, with values captured from the reference answers", () => {
    const values: { -readonly [K in keyof RecordValues]: RecordValues[K] } = {
      namespace: "ref-main",
      absentNamespace: "no-such-ns",
      otherNamespace: "other",
      createdResourceVersion: "",
      listResourceVersion: "",
      firstContinue: "",
      secondContinue: "",
      watchResourceVersion: "",
    };
    const templates = templatesInLineOrder();
    reference.forEach((transcript, index) => {
      const template = templates[index]!;
      expect(JSON.stringify({ id: template.id, note: template.note, request: lineRequest(template, values) }), transcript.id).toBe(
        JSON.stringify({ id: transcript.id, note: transcript.note, request: transcript.request }),
      );
      if (template.capture === undefined) return;
      const { values: captured, missing } = capturedValues(template, JSON.parse(transcript.response.body.text!));
      expect(missing, transcript.id).toEqual([]);
      Object.assign(values, captured);
    });
    expect(values).toMatchObject({ createdResourceVersion: "252", listResourceVersion: "262", watchResourceVersion: "263" });
  });

  it("sends the too-large body at the reference's size, and shows it as the reference does", () => {
    const template = templatesInLineOrder().find((candidate) => candidate.id === "body-too-large")!;
    const values = { namespace: "n" } as RecordValues;
    expect(Buffer.byteLength(renderRequest(template, values).body!)).toBe(TOO_LARGE_BODY_BYTES);
    expect(JSON.parse(renderRequest(template, values).body!).metadata.name).toBe("too-large");
    expect(lineRequest(template, values).body).toBe(`<${TOO_LARGE_BODY_BYTES} bytes>`);
  });

  it("never sends a write outside the run's namespaces: the node and the node lease are marked never sent", () => {
    const neverSent = templatesInLineOrder().filter((template) => template.neverSent !== undefined);
    expect(neverSent.map((template) => template.id)).toEqual(["node-create", "node-lease-create"]);
  });
});
