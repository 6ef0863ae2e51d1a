/**
 * Reading a TLS certificate and private key for `serveHttp`, checked up front: a missing file, a
 * file that is not PEM, or a key that does not belong to the certificate is reported here in one
 * line naming the file, instead of as an OpenSSL error from deep inside node:https at listen time.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";

/** PEM text of a certificate (chain) and its private key, as node:https takes them. */
export interface TlsCredentials {
  readonly cert: string;
  readonly key: string;
}

/** A certificate or key that cannot be served; the message is one line, meant for the user. */
export class TlsFilesError extends Error {}

/** Reads and checks `certFile` and `keyFile`; throws TlsFilesError on any problem. */
export function readTlsFiles(certFile: string, keyFile: string): TlsCredentials {
  const cert = readText(certFile, "certificate");
  const key = readText(keyFile, "private key");
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (error) {
    throw new TlsFilesError(`${certFile}: not a PEM certificate (${oneLine(error)})`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    throw new TlsFilesError(`${keyFile}: not a PEM private key, or one protected by a passphrase (${oneLine(error)})`);
  }
  if (!certificate.checkPrivateKey(privateKey)) throw new TlsFilesError(`${keyFile}: the private key does not match the certificate in ${certFile}`);
  return { cert, key };
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new TlsFilesError(`cannot read the ${what} ${file}: ${oneLine(error)}`);
  }
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
