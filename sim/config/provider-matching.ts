/**
 * Which credential providers an image invokes, and in what order their results combine (doc 3
 * §2.1, §2.2): every provider with a matchImages pattern that matches the image is invoked; their
 * results are combined, and where they return the same auth key the earlier provider in the list
 * wins. This is what `orb-harness match-image` shows.
 */
import { matchImagePattern, normalizeImage, SchemelessUrlError, type NormalizedImage } from "./image-matching.ts";
import { BadPatternError } from "./go-glob.ts";
import type { CredentialProvider } from "./validate-credential-provider-config.ts";

/** How one pattern fared against the image. */
export interface PatternResult {
  readonly pattern: string;
  readonly matched: boolean;
  /** Why it did not match, or what went wrong reading it. */
  readonly reason?: string;
}

/** One provider's verdict. */
export interface ProviderResult {
  readonly name: string;
  /** Position in the file, from 0. */
  readonly index: number;
  readonly matched: boolean;
  readonly patterns: readonly PatternResult[];
}

/** The answer for one image. */
export interface ImageMatchReport {
  readonly image: string;
  readonly normalized: NormalizedImage;
  /** Every provider, in file order. */
  readonly providers: readonly ProviderResult[];
  /** The matching providers' names in combining order: on an overlapping auth key, the first wins. */
  readonly precedence: readonly string[];
}

/** Matches `image` against every provider; throws SchemelessUrlError for an invalid image reference. */
export function matchProviders(providers: readonly CredentialProvider[], image: string): ImageMatchReport {
  const normalized = normalizeImage(image);
  const results = providers.map((provider, index) => {
    const patterns = provider.matchImages.map((pattern) => patternResult(pattern, normalized.repository));
    return { name: provider.name, index, matched: patterns.some((pattern) => pattern.matched), patterns };
  });
  return { image, normalized, providers: results, precedence: results.filter((result) => result.matched).map((result) => result.name) };
}

function patternResult(pattern: string, repository: string): PatternResult {
  try {
    const verdict = matchImagePattern(pattern, repository);
    return verdict.matched ? { pattern, matched: true } : { pattern, matched: false, reason: verdict.reason };
  } catch (error) {
    if (error instanceof SchemelessUrlError || error instanceof BadPatternError) return { pattern, matched: false, reason: `invalid pattern: ${error.message}` };
    throw error;
  }
}

/** The report as lines of text. */
export function formatImageMatchReport(report: ImageMatchReport): string[] {
  const lines = [`image: ${report.image}`, `matched as: ${report.normalized.repository} (doc 3 §2.2: registry domain, port and path; tag and digest are not matched)`];
  for (const provider of report.providers) {
    lines.push(`${provider.matched ? "match   " : "no match"} ${provider.index + 1}. ${provider.name}`);
    for (const pattern of provider.patterns) lines.push(`    ${pattern.matched ? "✓" : "✗"} ${pattern.pattern}${pattern.reason === undefined ? "" : `  (${pattern.reason})`}`);
  }
  if (report.precedence.length === 0) lines.push("no provider matches: no credentials from plugins for this image");
  else {
    lines.push(`invoked: ${report.precedence.join(", ")}`);
    lines.push(`combined in that order: where two return the same auth key, the earlier wins (doc 3 §2.1)${report.precedence.length > 1 ? `: ${report.precedence.join(" > ")}` : ""}`);
  }
  return lines;
}
