/**
 * The two kinds of load watchers (fanout-watcher.ts): one checks every event, the others count
 * their events and digest their bytes, and a stream that lost, repeated or reordered an event has
 * another digest than the checked one, however the bytes were split into chunks.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { encodeWatchEvent } from "../../sim/apiserver/protobuf/index.ts";
import { FanoutWatcher, type WatchEncoding, type WriteLedger } from "./fanout-watcher.ts";

const ledger: WriteLedger = { sentAt: () => 0 };
const configMap = (version: number) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `o${version}`, resourceVersion: String(version) }, data: { v: "\n".repeat(version) } });
const line = (version: number) => `${JSON.stringify({ type: "ADDED", object: configMap(version) })}\n`;
const frame = (version: number) => Buffer.from(encodeWatchEvent("ADDED", "v1", "ConfigMap", configMap(version)));
const streamOf: Record<WatchEncoding, (versions: readonly number[]) => Buffer> = {
  json: (versions) => Buffer.from(versions.map(line).join("")),
  protobuf: (versions) => Buffer.concat(versions.map(frame)),
};
const stream = streamOf.json;

/** A watcher fed `bytes` in chunks of `chunkBytes`, after the stream ends. */
async function fed(bytes: Buffer, chunkBytes: number, verifies: boolean, encoding: WatchEncoding = "json"): Promise<FanoutWatcher> {
  const response = new PassThrough();
  const watcher = new FanoutWatcher(response as unknown as IncomingMessage, ledger, undefined, () => 0, verifies, encoding);
  for (let at = 0; at < bytes.length; at += chunkBytes) response.write(bytes.subarray(at, at + chunkBytes));
  response.end();
  await new Promise((resolve) => response.on("end", resolve));
  return watcher;
}

describe("load watchers: checked event by event, or counted and digested", () => {
  it.each<WatchEncoding>(["json", "protobuf"])("count the same events and digest the same bytes alike, whatever the chunks (%s)", async (encoding) => {
    const bytes = streamOf[encoding]([5, 6, 7, 8, 9]);
    for (const chunkBytes of [1, 3, 7, 1_000]) {
      const checked = await fed(bytes, chunkBytes, true, encoding);
      const digested = await fed(bytes, 8 - (chunkBytes % 7), false, encoding);
      expect(checked.tally, `chunks of ${chunkBytes}`).toMatchObject({ events: 5, duplicated: 0, reordered: 0, unexpected: 0 });
      expect(digested.tally.events, `chunks of ${chunkBytes}`).toBe(5);
      expect(digested.digest()).toEqual(checked.digest());
    }
  });

  it("read the type and resourceVersion of Protobuf frames, and count a repeat and a reorder there too", async () => {
    const watcher = await fed(streamOf.protobuf([5, 7, 6, 7]), 5, true, "protobuf");
    expect(watcher.tally).toMatchObject({ events: 3, duplicated: 1, reordered: 1, unexpected: 0 });
    const deleted = Buffer.from(encodeWatchEvent("DELETED", "v1", "ConfigMap", configMap(9)));
    expect((await fed(deleted, 4, true, "protobuf")).tally).toMatchObject({ events: 0, unexpected: 1 });
  });

  it("count a repeat that is not next to its first as a duplicate, with opaque versions too", async () => {
    const opaque = (name: string) => `{"type":"ADDED","object":{"metadata":{"name":"${name}","resourceVersion":"v-${name}"}}}\n`;
    const watcher = await fed(Buffer.from(["a", "b", "a", "c"].map(opaque).join("")), 64, true);
    expect(watcher.tally).toMatchObject({ events: 3, duplicated: 1 });
  });

  it("tell a stream that lost, repeated or reordered an event from the checked one", async () => {
    const checked = (await fed(stream([5, 6, 7, 8]), 64, true)).digest();
    for (const versions of [[5, 6, 8], [5, 6, 6, 7, 8], [5, 7, 6, 8]]) {
      const digested = await fed(stream(versions), 64, false);
      expect(digested.digest()).not.toEqual(checked);
    }
  });
});
