/**
 * The path of a request as its client sent it. A fetch Request's URL resolves `.` and `..`
 * segments (and `%2e` forms) as the WHATWG URL standard says, so `DELETE …/configmaps/..` would
 * reach the namespace itself; kube-apiserver reads such segments as names (a ConfigMap named
 * `..`: 404, transcripts security-path-dotdot-*). The socket transport (sim/transport/raw-path.ts)
 * puts the path with its dot segments kept in RAW_PATH_HEADER, replacing any value a client sent;
 * authorization and routing both read it from here, so they always agree on what is asked.
 */

/** The header the socket transport sets when a path has dot segments that the URL resolved. */
export const RAW_PATH_HEADER = "x-orb-raw-path";

/** The request's path, percent-encoded as a URL's pathname is, dot segments kept. */
export function requestPath(request: Request, url: URL): string {
  return request.headers.get(RAW_PATH_HEADER) ?? url.pathname;
}
