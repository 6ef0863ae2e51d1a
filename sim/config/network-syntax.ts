/**
 * IP addresses and CIDRs as Go's net package reads them (`net.ParseIP`, `net.ParseCIDR`): dotted
 * IPv4 without leading zeros, IPv6 with `::` and an optional trailing IPv4, and no zone (`%eth0`).
 */
import { isIPv4, isIPv6 } from "node:net";

/** The IP family of `text`, or undefined when it is not an IP address. */
export function ipFamily(text: string): 4 | 6 | undefined {
  if (text.includes("%")) return undefined;
  if (isIPv4(text)) return 4;
  if (isIPv6(text)) return 6;
  return undefined;
}

/** Whether `text` is an IPv4 or IPv6 address. */
export function isIpAddress(text: string): boolean {
  return ipFamily(text) !== undefined;
}

/** A parsed CIDR. */
export interface Cidr {
  readonly address: string;
  readonly prefixLength: number;
  readonly family: 4 | 6;
}

/** Parses `address/prefix` as net.ParseCIDR does; undefined when it is not a CIDR. */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf("/");
  if (slash === -1) return undefined;
  const address = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const family = ipFamily(address);
  if (family === undefined || !/^[0-9]{1,3}$/.test(prefixText)) return undefined;
  const prefixLength = Number(prefixText);
  if (prefixLength > (family === 4 ? 32 : 128)) return undefined;
  return { address, prefixLength, family };
}

/**
 * A comma list of CIDRs as the controller manager reads `--cluster-cidr`: one CIDR, or two of
 * different families for dual stack. Returns the CIDRs or a message saying what is wrong.
 */
export function parseCidrList(text: string): { readonly cidrs: readonly Cidr[] } | { readonly error: string } {
  const parts = text.split(",").map((part) => part.trim());
  const cidrs: Cidr[] = [];
  for (const part of parts) {
    const cidr = parseCidr(part);
    if (cidr === undefined) return { error: `${JSON.stringify(part)} is not a CIDR (address/prefix-length)` };
    cidrs.push(cidr);
  }
  if (cidrs.length > 2) return { error: "at most two CIDRs (one IPv4, one IPv6) may be given" };
  if (cidrs.length === 2 && cidrs[0]!.family === cidrs[1]!.family) return { error: "two CIDRs must be of different IP families (dual stack)" };
  return { cidrs };
}
