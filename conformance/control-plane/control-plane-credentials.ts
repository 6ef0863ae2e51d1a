/**
 * The keys, certificate and tokens of a control plane the harness starts: a self-signed serving
 * certificate for 127.0.0.1 (made with openssl: Node can parse certificates but not issue them),
 * the service-account signing key pair (node:crypto), a static token file with one admin in
 * `system:masters`, and a kubeconfig for the controller manager. All fresh per start, all inside
 * the control plane's scratch directory.
 */
import { execFile } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ControlPlaneError } from "./kube-assets.ts";
import { kubeconfigText } from "./kubeconfig-text.ts";

/** The admin's name in the token file; its group `system:masters` is allowed everything under RBAC. */
export const ADMIN_USER = "orb-harness-admin";

/** Files and secrets of one control plane. */
export interface ControlPlaneCredentials {
  readonly servingCertificateFile: string;
  readonly servingKeyFile: string;
  /** The serving certificate in PEM: the CA clients verify the server with. */
  readonly servingCertificatePem: string;
  readonly serviceAccountPublicKeyFile: string;
  readonly serviceAccountPrivateKeyFile: string;
  readonly tokenFile: string;
  readonly adminToken: string;
}

/** Makes the credentials in `dir`. */
export async function makeControlPlaneCredentials(dir: string): Promise<ControlPlaneCredentials> {
  const servingCertificateFile = join(dir, "apiserver.crt");
  const servingKeyFile = join(dir, "apiserver.key");
  await selfSignedCertificate(servingCertificateFile, servingKeyFile);
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const serviceAccountPublicKeyFile = join(dir, "sa.pub");
  const serviceAccountPrivateKeyFile = join(dir, "sa.key");
  writeFileSync(serviceAccountPublicKeyFile, publicKey);
  writeFileSync(serviceAccountPrivateKeyFile, privateKey, { mode: 0o600 });
  const adminToken = randomBytes(24).toString("hex");
  const tokenFile = join(dir, "tokens.csv");
  writeFileSync(tokenFile, `${adminToken},${ADMIN_USER},${ADMIN_USER},"system:masters"\n`, { mode: 0o600 });
  return {
    servingCertificateFile,
    servingKeyFile,
    servingCertificatePem: readFileSync(servingCertificateFile, "utf8"),
    serviceAccountPublicKeyFile,
    serviceAccountPrivateKeyFile,
    tokenFile,
    adminToken,
  };
}

/** A kubeconfig for the admin at `url`, trusting the serving certificate (for the controller manager). */
export function writeAdminKubeconfig(path: string, url: string, credentials: ControlPlaneCredentials): void {
  const text = kubeconfigText({ server: url, certificateAuthorityPem: credentials.servingCertificatePem, token: credentials.adminToken, userName: ADMIN_USER });
  writeFileSync(path, text, { mode: 0o600 });
}

async function selfSignedCertificate(certificateFile: string, keyFile: string): Promise<void> {
  const args = [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "2",
    "-keyout", keyFile, "-out", certificateFile,
    "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-addext", "basicConstraints=critical,CA:TRUE",
  ];
  try {
    await promisify(execFile)("openssl", args, { timeout: 30_000 });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "openssl is not installed" : (error as Error).message.split("\n")[0];
    throw new ControlPlaneError(`cannot make the serving certificate: ${reason}`);
  }
}
