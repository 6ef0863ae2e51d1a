/**
 * Continue tokens of paged lists (doc 1 §4.6.3, §4.7 "Continue Token, Exact"): opaque to clients,
 * carrying the snapshot revision and the key to resume from. Unlike Kubernetes' plain base64 JSON
 * (spec/reference/kube-apiserver-1.26/README.md), ours are tamper-evident: the payload is signed
 * with an HMAC under a key drawn from the run's Rng, and any altered or forged token is rejected,
 * never honoured.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { InvalidContinueTokenError } from "./errors.ts";

/** What a token carries. `revision` undefined marks an inconsistent token: read at the latest. */
export interface ContinuePosition {
  /** Snapshot revision of the first page, or undefined to continue at the latest revision. */
  readonly revision: number | undefined;
  /** The collection's key prefix: a token only continues the list it came from. */
  readonly prefix: string;
  /** First key (inclusive) of the next page. */
  readonly startKey: string;
}

const FORMAT_VERSION = 1;
// 128 bits of HMAC-SHA256 are plenty against forgery and keep tokens short.
const MAC_BYTES = 16;

/** Signs and verifies continue tokens under one secret key. */
export class ContinueTokenCodec {
  private readonly key: Uint8Array;

  constructor(key: Uint8Array) {
    if (key.length < 16) throw new Error("continue token key must be at least 16 bytes");
    this.key = key;
  }

  /** The opaque token for a position. */
  encode(position: ContinuePosition): string {
    const payload = Buffer.from(
      JSON.stringify({ v: FORMAT_VERSION, rv: position.revision ?? -1, p: position.prefix, k: position.startKey }),
    ).toString("base64url");
    return `${payload}.${this.mac(payload).toString("base64url")}`;
  }

  /** The position a token carries; throws InvalidContinueTokenError for anything not issued here. */
  decode(token: string): ContinuePosition {
    const parts = token.split(".");
    if (parts.length !== 2 || parts[0] === "" || parts[1] === "") throw new InvalidContinueTokenError("malformed");
    const [payload, macText] = parts as [string, string];
    const given = Buffer.from(macText, "base64url");
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new InvalidContinueTokenError("signature mismatch");
    }
    // The signature holds, so the payload is one we wrote; its shape is still checked, cheaply.
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    const { v, rv, p, k } = fields;
    if (v !== FORMAT_VERSION || typeof rv !== "number" || typeof p !== "string" || typeof k !== "string") {
      throw new InvalidContinueTokenError("unknown format");
    }
    return { revision: rv === -1 ? undefined : rv, prefix: p, startKey: k };
  }

  private mac(payload: string): Buffer {
    return createHmac("sha256", this.key).update(payload).digest().subarray(0, MAC_BYTES);
  }
}
