/**
 * Reads a JSON watch response one event at a time, for tests that watch through the handler:
 * `next()` resolves to the next event (undefined once the stream ends), `cancel()` ends the watch.
 */

/** A reader of the newline-separated JSON events of `response`. */
export function watchLineReader(response: Response): { next(): Promise<any>; cancel(): Promise<void> } {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  return {
    async next(): Promise<any> {
      for (;;) {
        const newline = buffered.indexOf("\n");
        if (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          return JSON.parse(line);
        }
        const { done, value } = await reader.read();
        if (done) {
          const rest = buffered;
          buffered = "";
          return rest.trim() === "" ? undefined : JSON.parse(rest);
        }
        buffered += decoder.decode(value);
      }
    },
    cancel: () => reader.cancel(),
  };
}
