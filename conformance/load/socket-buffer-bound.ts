/**
 * How many bytes a watcher that stopped reading can leave in its connection before the server has
 * to hold them itself, and so cut the watcher off: the kernel's largest receive buffer on the
 * client's end and largest send buffer on the server's (Linux autotunes loopback sockets up to
 * these, 32 MiB + 4 MiB on this project's machines), plus a few MiB of flushes and parser buffers.
 * Read from /proc where it exists; 40 MiB elsewhere.
 */
import { readFileSync } from "node:fs";

const SLACK_BYTES = 4 * 2 ** 20;
const FALLBACK_BYTES = 40 * 2 ** 20;

/** The bound on bytes a paused watcher's connection absorbs. */
export function pausedConnectionBytes(): number {
  try {
    const largest = (file: string) => Number(readFileSync(file, "utf8").trim().split(/\s+/).at(-1));
    const total = largest("/proc/sys/net/ipv4/tcp_rmem") + largest("/proc/sys/net/ipv4/tcp_wmem") + SLACK_BYTES;
    return Number.isFinite(total) ? total : FALLBACK_BYTES;
  } catch {
    return FALLBACK_BYTES;
  }
}
