/**
 * The two kinds of load watchers (fanout-watcher.ts): one checks every event, the others count
 * their events and digest their bytes, and a stream that lost, repeated or reordered an event has
 * another digest than the checked one, however the bytes were split into chunks.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { FanoutWatcher, type WriteLedger } from "./fanout-watcher.ts";

const ledger: WriteLedger = { sentAt: () => 0 };
const line = (version: number) => `{"type":"ADDED","object":{"metadata":{"name":"o${version}","resourceVersion":"${version}"}}}\n`;
const stream = (versions: readonly number[]) => Buffer.from(versions.map(line).join(""));

/** A watcher fed `bytes` in chunks of `chunkBytes`, after the stream ends. */
async function fed(bytes: Buffer, chunkBytes: number, verifies: boolean): Promise<FanoutWatcher> {
  const response = new PassThrough();
  const watcher = new FanoutWatcher(response as unknown as IncomingMessage, ledger, undefined, () => 0, verifies);
  for (let at = 0; at < bytes.length; at += chunkBytes) response.write(bytes.subarray(at, at + chunkBytes));
  response.end();
  await new Promise((resolve) => response.on("end", resolve));
  return watcher;
}

describe("load watchers: checked event by event, or counted and digested", () => {
  it("count the same events and digest the same bytes alike, whatever the chunks", async () => {
    const bytes = stream([5, 6, 7, 8, 9]);
    const checked = await fed(bytes, 1_000, true);
    const digested = await fed(bytes, 7, false);
    expect(checked.tally).toMatchObject({ events: 5, duplicated: 0, reordered: 0 });
    expect(digested.tally.events).toBe(5);
    expect(digested.digest()).toEqual(checked.digest());
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
