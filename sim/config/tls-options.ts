/**
 * TLS settings shared by doc 2 §5 and doc 3 §2.3: which cipher suites are secure, and the syntax
 * of `--tls-sni-cert-key` (the name tables are in spec/doc2/tls-names.ts).
 */
import { INSECURE_CIPHER_SUITES, SECURE_CIPHER_SUITES } from "../../spec/doc2/tls-names.ts";

/** The name tables, re-exported for the checks that suggest a close name. */
export { KNOWN_CIPHER_SUITES, TLS_VERSIONS } from "../../spec/doc2/tls-names.ts";

/** What a cipher suite name is. */
export type CipherSuiteKind = "secure" | "insecure" | "unknown";

const SECURE: ReadonlySet<string> = new Set(SECURE_CIPHER_SUITES);
const INSECURE: ReadonlySet<string> = new Set(INSECURE_CIPHER_SUITES);

/** Whether `name` is a secure, an insecure or an unknown cipher suite. */
export function cipherSuiteKind(name: string): CipherSuiteKind {
  return SECURE.has(name) ? "secure" : INSECURE.has(name) ? "insecure" : "unknown";
}


/** One `--tls-sni-cert-key` value (doc 2 §5). */
export interface NamedCertKey {
  readonly certFile: string;
  readonly keyFile: string;
  /** Explicit domain patterns; empty means the names are taken from the certificate. */
  readonly names: readonly string[];
}

/** A `--tls-sni-cert-key` value that is not `<cert>,<key>[:<domains>]`. */
export class NamedCertKeyError extends Error {}

/**
 * Parses `<cert-path>,<key-path>` with optional `:<domain-patterns>` (comma separated, wildcard
 * prefixes allowed), as Kubernetes' `cliflag.NamedCertKey.Set`: split once on `:`, trim spaces,
 * and require exactly two paths.
 */
export function parseNamedCertKey(value: string): NamedCertKey {
  const colon = value.indexOf(":");
  const pairText = (colon === -1 ? value : value.slice(0, colon)).trim();
  let names: string[] = [];
  if (colon !== -1) {
    const namesText = value.slice(colon + 1).trim();
    if (namesText === "") throw new NamedCertKeyError("empty names list is not allowed");
    names = namesText.split(",").map((name) => name.trim());
  }
  const paths = pairText.split(",");
  if (paths.length !== 2) throw new NamedCertKeyError("expected comma separated certificate and key file paths");
  return { certFile: paths[0]!.trim(), keyFile: paths[1]!.trim(), names };
}
