/**
 * Reads a JSON watch stream's events without parsing them: a load run receives about a million
 * events a minute, and JSON.parse of each would make the client, not the server, the bottleneck.
 * Each line is one event (doc 1 §6); its type and the first resourceVersion in it (the object's
 * own, since metadata comes before data in every object a server sends) identify it.
 */

/** One event as the scanner sees it. */
export interface ScannedEvent {
  readonly type: string;
  readonly resourceVersion: string;
}

const TYPE_FIELD = '"type":"';
const VERSION_FIELD = '"resourceVersion":"';

/** Splits a stream's chunks into lines and scans each. */
export class WatchLineScanner {
  private partial = "";

  /** The events completed by this chunk, in order. */
  push(chunk: string): ScannedEvent[] {
    const text = this.partial + chunk;
    const events: ScannedEvent[] = [];
    let start = 0;
    for (let end = text.indexOf("\n", start); end >= 0; end = text.indexOf("\n", start)) {
      if (end > start) events.push(scanLine(text, start, end));
      start = end + 1;
    }
    this.partial = text.slice(start);
    return events;
  }
}

/** The type and resourceVersion of the line text[start, end); "?" for a field not found. */
export function scanLine(text: string, start: number, end: number): ScannedEvent {
  return { type: fieldValue(text, TYPE_FIELD, start, end), resourceVersion: fieldValue(text, VERSION_FIELD, start, end) };
}

function fieldValue(text: string, field: string, start: number, end: number): string {
  const at = text.indexOf(field, start);
  if (at < 0 || at >= end) return "?";
  const valueStart = at + field.length;
  const valueEnd = text.indexOf('"', valueStart);
  return valueEnd < 0 || valueEnd > end ? "?" : text.slice(valueStart, valueEnd);
}
