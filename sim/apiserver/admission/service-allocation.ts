/**
 * Service defaults and allocations (transcript service-create): type ClusterIP, TCP ports with
 * targetPort = port, a cluster IP from `--service-cluster-ip-range` and node ports from
 * 30000-32767 for NodePort and LoadBalancer services. What is in use is read from the stored
 * services each time, so a dry run fills in values without reserving them (doc 1 §2.7, §4.4.3).
 */
import type { Rng } from "../../kernel/rng.ts";
import type { StoredObject } from "../../store/stored-object.ts";
import { invalid, invalidValue } from "../responses/api-error.ts";
import { structItems } from "../patch/json-value.ts";

/** kube-apiserver's default --service-cluster-ip-range. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = "10.0.0.0/24";
/** kube-apiserver's default --service-node-port-range. */
export const NODE_PORT_RANGE = { first: 30000, last: 32767 } as const;

type Json = Record<string, unknown>;

/** An IPv4 range in CIDR form. */
export interface Ipv4Range {
  readonly base: number;
  readonly size: number;
}

/** Parses an IPv4 CIDR such as 10.0.0.0/24; throws a readable error otherwise. */
export function parseIpv4Cidr(cidr: string): Ipv4Range {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  const octets = match?.slice(1, 5).map(Number);
  const prefix = Number(match?.[5]);
  if (octets === undefined || octets.some((o) => o > 255) || prefix > 30 || prefix < 8) {
    throw new Error(`invalid service IP range ${JSON.stringify(cidr)}: want an IPv4 CIDR with a prefix from /8 to /30`);
  }
  const address = octets.reduce((sum, octet) => sum * 256 + octet, 0);
  const size = 2 ** (32 - prefix);
  return { base: address - (address % size), size };
}

function formatIpv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join(".");
}

/** Cluster IPs and node ports held by stored services (other than `except`). */
export function allocationsInUse(services: readonly StoredObject[], except?: string): { ips: Set<string>; ports: Set<number> } {
  const ips = new Set<string>();
  const ports = new Set<number>();
  for (const service of services) {
    if (service.metadata.name === except) continue;
    const spec = (service["spec"] ?? {}) as Json;
    if (typeof spec["clusterIP"] === "string") ips.add(spec["clusterIP"]);
    for (const port of (spec["ports"] ?? []) as Json[]) if (typeof port["nodePort"] === "number") ports.add(port["nodePort"]);
  }
  return { ips, ports };
}

/**
 * The service with defaults and allocations filled in; `current` keeps what an update may not
 * change. A dry run gets placeholders that no real allocation can equal (doc 1 §2.7: the values
 * differ between a dry run and the real request), as Kubernetes shows them (transcript
 * dryrun-service: the range's network address, node ports above the range).
 */
export function withServiceDefaults(
  service: StoredObject,
  current: StoredObject | undefined,
  inUse: { ips: Set<string>; ports: Set<number> },
  range: Ipv4Range,
  rng: Rng,
  dry = false,
): StoredObject {
  const spec = (service["spec"] ?? {}) as Json;
  const currentSpec = (current?.["spec"] ?? {}) as Json;
  const type = (spec["type"] ?? "ClusterIP") as string;
  const wantsNodePorts = type === "NodePort" || type === "LoadBalancer";
  const currentPorts = structItems(currentSpec["ports"]);
  const ports = structItems(spec["ports"]).map((port, index) => {
    const protocol = port["protocol"] ?? "TCP";
    const nodePort = port["nodePort"] ?? currentPorts[index]?.["nodePort"];
    return {
      ...port,
      protocol,
      targetPort: port["targetPort"] ?? port["port"],
      ...(wantsNodePorts && { nodePort: nodePort ?? (dry ? NODE_PORT_RANGE.last + 2 + index : pickNodePort(inUse.ports, rng)) }),
    };
  });
  const clusterIP = (spec["clusterIP"] ??
    currentSpec["clusterIP"] ??
    (dry ? formatIpv4(range.base) : pickClusterIp(inUse.ips, range, rng, service.metadata.name))) as string;
  if (clusterIP !== "None" && current === undefined && inUse.ips.has(clusterIP)) {
    throw invalid("Service", service.metadata.name, [invalidValue("spec.clusterIPs", clusterIP, "failed to allocate IP: provided IP is already allocated")]);
  }
  const defaulted: Json = {
    ports,
    ...(spec["selector"] !== undefined && { selector: spec["selector"] }),
    clusterIP,
    clusterIPs: [clusterIP],
    type,
    sessionAffinity: spec["sessionAffinity"] ?? "None",
    ...(wantsNodePorts && { externalTrafficPolicy: spec["externalTrafficPolicy"] ?? "Cluster" }),
    ipFamilies: spec["ipFamilies"] ?? ["IPv4"],
    ipFamilyPolicy: spec["ipFamilyPolicy"] ?? "SingleStack",
    internalTrafficPolicy: spec["internalTrafficPolicy"] ?? "Cluster",
  };
  // Fields the server does not default keep their values, after the defaulted ones (Kubernetes' struct order for those).
  for (const [field, value] of Object.entries(spec)) if (!(field in defaulted)) defaulted[field] = value;
  return { ...service, spec: defaulted, status: service["status"] ?? { loadBalancer: {} } };
}

// The network address and the first host (kept for the `kubernetes` service) are never handed out.
function pickClusterIp(inUse: Set<string>, range: Ipv4Range, rng: Rng, name: string): string {
  const offset = pickFree(2, range.size - 2, (candidate) => !inUse.has(formatIpv4(range.base + candidate)), rng);
  if (offset === undefined) throw invalid("Service", name, [invalidValue("spec.clusterIPs", "", "failed to allocate IP: range is full")]);
  return formatIpv4(range.base + offset);
}

function pickNodePort(inUse: Set<number>, rng: Rng): number {
  const port = pickFree(NODE_PORT_RANGE.first, NODE_PORT_RANGE.last, (candidate) => !inUse.has(candidate), rng);
  if (port === undefined) throw new Error("node port range is full");
  inUse.add(port);
  return port;
}

/** A random free value in [first, last]: random probes first (cheap while the range is sparse), then a scan. */
function pickFree(first: number, last: number, isFree: (value: number) => boolean, rng: Rng): number | undefined {
  for (let attempt = 0; attempt < 64; attempt++) {
    const candidate = rng.int(first, last);
    if (isFree(candidate)) return candidate;
  }
  for (let candidate = first; candidate <= last; candidate++) if (isFree(candidate)) return candidate;
  return undefined;
}
