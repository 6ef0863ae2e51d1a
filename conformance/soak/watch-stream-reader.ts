/**
 * Reads a JSON watch stream (doc 1 §4.6: one JSON document per event, each on its line) as it
 * arrives, handing each complete line on with the monotonic time its chunk arrived. Events the
 * server sent in one write share that time.
 */

/** How a stream ended: the server ended it (the body completed), the client stopped reading, or it broke. */
export type StreamEnd = "ended" | "stopped" | "broken";

/**
 * Reads `body` until it ends, breaks, or `stop` aborts, calling `onLine` for every non-empty
 * line. Stopping cancels the body (which closes the connection): aborting the request alone does
 * not end a fetch body while chunks keep arriving.
 */
export async function readWatchLines(body: ReadableStream<Uint8Array>, onLine: (line: string, atMs: number) => void, stop: AbortSignal): Promise<StreamEnd> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  stop.addEventListener("abort", cancel, { once: true });
  if (stop.aborted) cancel();
  const decoder = new TextDecoder();
  let partial = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (stop.aborted) return "stopped";
      const atMs = performance.now();
      if (done) {
        // A last document without its newline is still a document.
        const rest = (partial + decoder.decode()).trim();
        if (rest !== "") onLine(rest, atMs);
        return "ended";
      }
      partial += decoder.decode(value, { stream: true });
      let newline = partial.indexOf("\n");
      while (newline >= 0) {
        const line = partial.slice(0, newline).trim();
        partial = partial.slice(newline + 1);
        if (line !== "") onLine(line, atMs);
        newline = partial.indexOf("\n");
      }
    }
  } catch {
    return stop.aborted ? "stopped" : "broken";
  } finally {
    stop.removeEventListener("abort", cancel);
    reader.releaseLock();
  }
}
