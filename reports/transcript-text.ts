/**
 * A case's HTTP exchanges as plain text, curl -v style, for JUnit failure bodies and the HTML
 * report: `> ` lines are the request, `< ` lines the response. Bodies are cut to 4 KiB (UTF-8
 * bytes, never inside a character) even when a producer recorded more.
 */
import type { Exchange } from "../conformance/results.ts";

/** The most body bytes a report shows per body (the results schema's excerpt size). */
export const BODY_EXCERPT_BYTES = 4096;

/** `text` cut to at most `maxBytes` UTF-8 bytes at a character boundary, and how many bytes were cut. */
export function clipUtf8(text: string, maxBytes: number): { readonly text: string; readonly cutBytes: number } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, cutBytes: 0 };
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // back off a continuation byte
  return { text: bytes.subarray(0, end).toString("utf8"), cutBytes: bytes.length - end };
}

/** One exchange's first line: `GET /path?query → 200 (12 ms)`. */
export function exchangeHeadline(exchange: Exchange): string {
  const status = exchange.status === 0 ? "no response" : String(exchange.status);
  return `${exchange.method} ${exchange.path} → ${status} (${formatMs(exchange.durationMs)})`;
}

/** The whole transcript as text; "(no HTTP exchanges recorded)" when empty. */
export function transcriptText(transcript: readonly Exchange[]): string {
  if (transcript.length === 0) return "(no HTTP exchanges recorded)";
  return transcript.map((exchange, index) => exchangeText(exchange, index + 1)).join("\n\n");
}

function exchangeText(exchange: Exchange, number: number): string {
  const lines = [`#${number} ${exchangeHeadline(exchange)}`];
  lines.push(...headerLines(">", exchange.requestHeaders), ...bodyLines(">", exchange.requestBody, exchange.truncated));
  if (exchange.status !== 0) {
    lines.push(...headerLines("<", exchange.responseHeaders), ...bodyLines("<", exchange.responseBody, exchange.truncated));
  }
  return lines.join("\n");
}

function headerLines(mark: string, headers: Readonly<Record<string, string>>): string[] {
  return Object.keys(headers)
    .sort()
    .map((name) => `${mark} ${name}: ${headers[name]}`);
}

function bodyLines(mark: string, body: string, truncated: boolean): string[] {
  if (body === "") return [];
  const { text, cutBytes } = clipUtf8(body, BODY_EXCERPT_BYTES);
  const lines = [mark, ...text.split(/\r?\n/).map((line) => `${mark} ${line}`)];
  if (cutBytes > 0) lines.push(`${mark} [… ${cutBytes} more bytes not shown]`);
  else if (truncated) lines.push(`${mark} [… body cut to ${BODY_EXCERPT_BYTES / 1024} KiB when recorded]`);
  return lines;
}

/** Milliseconds for people: `850 ms`, `1.25 s`, `2 min 3 s`. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2).replace(/\.?0+$/, "")} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}
