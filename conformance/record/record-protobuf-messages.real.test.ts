/**
 * The committed Protobuf tables are what the kube-apiserver binary says today: recording again from
 * the real tier's binaries gives the same kinds and messages (only the date may differ). A served
 * type added without re-recording, or a change of the derivation rules, shows here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ASSETS_ENVIRONMENT_VARIABLE } from "../control-plane/kube-assets.ts";
import { MESSAGES_FILE, recordMessages, type RecordedMessages } from "./record-protobuf-messages.ts";

describe("the recorded Protobuf tables", () => {
  it("are what recording from the binaries gives now", () => {
    const { data } = recordMessages(process.env[ASSETS_ENVIRONMENT_VARIABLE]!);
    const committed = JSON.parse(readFileSync(MESSAGES_FILE, "utf8")) as RecordedMessages;
    expect(data.source.gitVersion).toBe(committed.source.gitVersion);
    expect(data.kinds).toEqual(committed.kinds);
    expect(data.packages).toEqual(committed.packages);
  });
});
