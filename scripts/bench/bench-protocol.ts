/** How `orb-harness bench` and its child processes talk: the server in the environment, the figures on the last line. */

/** The server a server benchmark measures, as JSON ({url, certificateAuthority, token?}). */
export const SERVER_ENVIRONMENT_VARIABLE = "ORB_BENCH_SERVER";
/** The line a child prints its figures on, followed by their JSON. */
export const RESULT_PREFIX = "bench-result ";
