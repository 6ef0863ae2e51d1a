/**
 * Keeping dot segments through a fetch Request (see sim/apiserver/routing/request-path.ts): when a raw
 * request target's path has `.` or `..` segments, the path is normalized segment by segment as a
 * URL would (percent-encoding), with the dot segments left as they are, and carried in
 * RAW_PATH_HEADER. A client's own RAW_PATH_HEADER is always dropped first.
 */
import { RAW_PATH_HEADER } from "../apiserver/routing/request-path.ts";

// `.`, `..`, and their percent-encoded spellings, which the URL standard also resolves.
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Sets or removes RAW_PATH_HEADER on `headers` for a raw request target (`/path?query`). */
export function carryRawPath(headers: Headers, target: string): void {
  headers.delete(RAW_PATH_HEADER);
  const path = target.split("?", 1)[0]!;
  const segments = path.split("/");
  if (!segments.some((segment) => DOT_SEGMENT.test(segment))) return;
  headers.set(RAW_PATH_HEADER, segments.map((segment) => (DOT_SEGMENT.test(segment) ? segment : normalizedSegment(segment))).join("/"));
}

// One segment as a URL's pathname would spell it; a backslash stays a character (the URL standard
// reads it as a slash in http URLs, Go does not).
function normalizedSegment(segment: string): string {
  return new URL(`http://host/${segment.replaceAll("\\", "%5C")}`).pathname.slice(1);
}
