/**
 * A free TCP port on 127.0.0.1 for a server the harness starts, chosen below the kernel's ephemeral
 * range. A port found by binding port 0 comes from that range, and while a server is still starting
 * (kube-controller-manager binds seconds after it was chosen) the kernel may hand the same port to
 * any outbound connection as its source port: a CI run lost kube-controller-manager to "bind:
 * address already in use" that way, with the apiserver's many connections to etcd beside it.
 * Below the range only another listener can take it, and the bind check sees those.
 */
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const LINUX_EPHEMERAL_RANGE_FILE = "/proc/sys/net/ipv4/ip_local_port_range";
/** The lowest port we hand out: above the well-known and most registered service ports. */
const LOWEST_PORT = 10_000;
/** Linux's default ephemeral range starts here; used where the kernel does not say. */
const DEFAULT_EPHEMERAL_START = 32_768;
const ATTEMPTS = 50;

/** A distinct port for each name, below the ephemeral range, that nothing listens on at the moment. */
export async function freeLoopbackPorts<Name extends string>(names: readonly Name[]): Promise<Record<Name, number>> {
  const count = names.length;
  const end = ephemeralRangeStart();
  const ports: number[] = [];
  for (let attempt = 0; attempt < ATTEMPTS * count && ports.length < count; attempt++) {
    const port = randomInt(LOWEST_PORT, end);
    if (!ports.includes(port) && (await canListen(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`found ${ports.length} of ${count} free ports on 127.0.0.1 between ${LOWEST_PORT} and ${end - 1}`);
  return Object.fromEntries(names.map((name, index) => [name, ports[index]])) as Record<Name, number>;
}

/** The first port of the kernel's ephemeral range, or the default where it cannot be read or leaves no room below. */
export function ephemeralRangeStart(rangeFileText = readRangeFile()): number {
  const start = Number(rangeFileText?.trim().split(/\s+/)[0]);
  return Number.isInteger(start) && start > LOWEST_PORT + 1_000 ? start : DEFAULT_EPHEMERAL_START;
}

function readRangeFile(): string | undefined {
  try {
    return readFileSync(LINUX_EPHEMERAL_RANGE_FILE, "utf8");
  } catch {
    return undefined; // not Linux: the default range start is a fair guess
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
