/**
 * Records a case's HTTP exchanges for the report: method, path, status, the headers that matter,
 * bodies cut at 4 KiB. Credentials are removed here, where they enter the record, so no writer
 * downstream can leak them.
 */
import type { Exchange } from "../results.ts";

const EXCERPT_BYTES = 4096;
const REQUEST_HEADERS = ["accept", "content-type"];
const RESPONSE_HEADERS = ["content-type", "retry-after", "warning", "transfer-encoding", "location"];

/** Collects the exchanges of one case. */
export class ExchangeRecorder {
  readonly exchanges: Exchange[] = [];

  /** Each secret as given and base64-encoded (a Secret's data, a basic-auth header), longest first. */
  private readonly forms: readonly string[];

  constructor(secrets: readonly string[]) {
    const forms = secrets.filter((secret) => secret !== "").flatMap((secret) => [secret, Buffer.from(secret).toString("base64").replace(/=+$/, ""), Buffer.from(secret).toString("base64url")]);
    this.forms = [...new Set(forms)].sort((a, b) => b.length - a.length);
  }

  /** Records one exchange. */
  record(exchange: {
    method: string;
    path: string;
    status: number;
    requestHeaders: Headers;
    responseHeaders: Headers | undefined;
    requestBody: string;
    responseBody: string;
    durationMs: number;
  }): void {
    const [requestBody, requestCut] = this.excerpt(exchange.requestBody);
    const [responseBody, responseCut] = this.excerpt(exchange.responseBody);
    this.exchanges.push({
      method: exchange.method,
      path: this.redact(exchange.path),
      status: exchange.status,
      requestHeaders: pick(exchange.requestHeaders, REQUEST_HEADERS),
      responseHeaders: exchange.responseHeaders === undefined ? {} : pick(exchange.responseHeaders, RESPONSE_HEADERS),
      requestBody,
      responseBody,
      truncated: requestCut || responseCut,
      durationMs: Math.round(exchange.durationMs),
    });
  }

  // 4 KiB of UTF-8, not 4096 characters: a binary body read as text is mostly 3-byte U+FFFD.
  private excerpt(text: string): [string, boolean] {
    const scrubbed = this.redact(text);
    if (scrubbed.length <= EXCERPT_BYTES / 4) return [scrubbed, false];
    const encoded = new TextEncoder().encode(scrubbed);
    if (encoded.byteLength <= EXCERPT_BYTES) return [scrubbed, false];
    // Cut on a character boundary: back off over UTF-8 continuation bytes (0b10xxxxxx).
    let end = EXCERPT_BYTES;
    while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
    return [new TextDecoder().decode(encoded.subarray(0, end)), true];
  }

  /** `text` with the run's secrets replaced: for transcripts, and for case messages (runner.ts). */
  redact(text: string): string {
    let result = text;
    for (const form of this.forms) result = result.split(form).join("[redacted]");
    return result;
  }
}

// Only named, harmless headers are kept: Authorization and cookies never enter the record.
function pick(headers: Headers, names: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}
