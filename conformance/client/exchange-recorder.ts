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

  constructor(private readonly secrets: readonly string[]) {}

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
      path: this.scrub(exchange.path),
      status: exchange.status,
      requestHeaders: pick(exchange.requestHeaders, REQUEST_HEADERS),
      responseHeaders: exchange.responseHeaders === undefined ? {} : pick(exchange.responseHeaders, RESPONSE_HEADERS),
      requestBody,
      responseBody,
      truncated: requestCut || responseCut,
      durationMs: Math.round(exchange.durationMs),
    });
  }

  private excerpt(text: string): [string, boolean] {
    const scrubbed = this.scrub(text);
    return scrubbed.length > EXCERPT_BYTES ? [scrubbed.slice(0, EXCERPT_BYTES), true] : [scrubbed, false];
  }

  private scrub(text: string): string {
    let result = text;
    for (const secret of this.secrets) if (secret !== "") result = result.split(secret).join("[redacted]");
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
