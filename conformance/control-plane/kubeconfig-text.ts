/**
 * A kubeconfig with one cluster, one user and one context, as kubectl and
 * @kubernetes/client-node (`KubeConfig.loadFromString`) read it: for a control plane the harness
 * starts from binaries, and for the embedded server of the library (scripts/library/).
 */

/** Where the server is, how to trust it, and who the client is. */
export interface KubeconfigParts {
  /** `https://127.0.0.1:PORT` or `http://…`. */
  readonly server: string;
  /** The serving certificate (PEM) clients verify the server with. */
  readonly certificateAuthorityPem?: string;
  /**
   * Verify nothing. For an `http://` server it must be set: client-node 1.x refuses an http
   * server otherwise (there is no TLS to verify), and kubectl accepts it.
   */
  readonly insecureSkipTlsVerify?: boolean;
  /** A bearer token; none: the client sends no credentials. */
  readonly token?: string;
  /** The user's name in the file (default `orb-harness`). */
  readonly userName?: string;
  /** The cluster's and the context's name (default `orb-harness`). */
  readonly name?: string;
}

/** The kubeconfig's YAML text. Values are written as JSON strings, which YAML reads as they are. */
export function kubeconfigText(parts: KubeconfigParts): string {
  const q = (value: string) => JSON.stringify(value);
  const name = parts.name ?? "orb-harness";
  const userName = parts.userName ?? "orb-harness";
  const cluster = [`    server: ${q(parts.server)}`];
  if (parts.certificateAuthorityPem !== undefined) cluster.push(`    certificate-authority-data: ${Buffer.from(parts.certificateAuthorityPem).toString("base64")}`);
  if (parts.insecureSkipTlsVerify === true) cluster.push("    insecure-skip-tls-verify: true");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${q(name)}`,
    "  cluster:",
    ...cluster,
    "users:",
    `- name: ${q(userName)}`,
    parts.token === undefined ? "  user: {}" : `  user:\n    token: ${q(parts.token)}`,
    "contexts:",
    `- name: ${q(name)}`,
    "  context:",
    `    cluster: ${q(name)}`,
    `    user: ${q(userName)}`,
    `current-context: ${q(name)}`,
    "",
  ].join("\n");
}
