/**
 * The last line of defence against credentials in reports. The runner redacts transcripts when it
 * records them; every writer here scrubs again, so a producer's slip never reaches results.json,
 * junit.xml, summary.md, report.html or a CI step summary. It removes: values of credential
 * headers and fields (Authorization, Proxy-Authorization, Cookie, `token`, `password`, ...),
 * bearer tokens and JWTs, PEM blocks and base64-encoded PEM, `token=`/`password=` values in
 * queries and flags, passwords in URLs, and the run's own secret strings wherever they occur.
 * It errs towards removing too much: a report that hides a harmless word costs less than a leak.
 */

/** What a removed value is replaced with. */
export const REDACTED = "[REDACTED]";

/** The options every writer takes: the run's secret strings (its token, ...), removed verbatim. */
export interface RedactionOptions {
  readonly secrets?: readonly string[];
}

// Names (headers, JSON fields, query parameters, flags) whose value is a credential, compared
// without case, dashes or underscores by suffix: x-auth-token, access_token, clientSecret.
// SENSITIVE_WORD below is the same list as a pattern: change both together.
const SENSITIVE_SUFFIXES = [
  "authorization",
  "cookie",
  "token",
  "password",
  "passwd",
  "secret",
  "apikey",
  "privatekey",
  "keydata",
  "credentials",
  "sessionid",
] as const;

/** True when a header, field, query parameter or flag of this name carries a credential. */
export function isSensitiveName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return normalized !== "" && SENSITIVE_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

// A PEM block; a block cut short by the 4 KiB excerpt is removed to the end of the text.
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]{1,40})-----[\s\S]*?(?:-----END \1-----|$)/g;
// Base64 of "-----BEGIN" (kubeconfig client-key-data, Secret data).
const BASE64_PEM = /LS0tLS1CRUdJT[A-Za-z0-9+/=]*/g;
// A JSON Web Token (service account tokens).
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
// `Bearer <token>`, except in prose about bearer tokens.
const BEARER = /\b(Bearer\s+)(?!(?:tokens?|auth|authentication|scheme)\b)[A-Za-z0-9._~+/-]+=*/gi;
// A password in a URL's user information.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi;
// The suffixes above as a pattern, separators allowed where people write them.
const SENSITIVE_WORD =
  "authorization|cookie|token|password|passwd|secret|api[-_]?key|private[-_]?key|key[-_]?data|credentials|session[-_]?id";
// `Name: value` as a header line or YAML, up to the end of the line or of a JSON string. Only
// sensitive names match, so an earlier `https: ...` cannot swallow a later `cookie: ...`.
const COLON_LINE = new RegExp(`(^|[\\s"'{,;(])([A-Za-z0-9_-]*(?:${SENSITIVE_WORD}))(\\s*:[ \\t]*)([^\\r\\n"\\\\]+)`, "gim");
// `"name": "value"` in a JSON body.
const JSON_FIELD = /"([^"\\]{1,80})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
// `name=value` in a query, a form body or a `--flag=value`.
const ASSIGNMENT = /(^|[?&;\s])([A-Za-z0-9_.-]+)=([^&#\s"'<>]*)/g;
// `--flag value` on a command line (a short lowercase word after the flag is prose: see isProseWord).
const FLAG_VALUE = /(^|\s)(--?[A-Za-z0-9][A-Za-z0-9_-]*)(\s+)(?!-)("[^"]*"|'[^']*'|\S+)/g;

/** Removes every credential this module recognizes from free text (bodies, messages, paths). */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return redactSecrets(text, secrets)
    .replace(PEM_BLOCK, (_match, label: string) => `-----BEGIN ${label}----- ${REDACTED} -----END ${label}-----`)
    .replace(BASE64_PEM, REDACTED)
    .replace(JWT, REDACTED)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(URL_PASSWORD, `$1:${REDACTED}@`)
    .replace(COLON_LINE, (match, lead: string, name: string, colon: string, value: string) =>
      isSensitiveName(name) && !isPlaceholder(value) ? `${lead}${name}${colon}${REDACTED}` : match,
    )
    .replace(JSON_FIELD, (match, name: string, colon: string, value: string) =>
      isSensitiveName(name) && !isPlaceholder(value) ? `"${name}"${colon}"${REDACTED}"` : match,
    )
    .replace(ASSIGNMENT, (match, lead: string, name: string, value: string) =>
      isSensitiveName(name) && !isPlaceholder(value) ? `${lead}${name}=${REDACTED}` : match,
    )
    .replace(FLAG_VALUE, (match, lead: string, flag: string, space: string, value: string) =>
      isSensitiveName(flag) && !isPlaceholder(value) && !isProseWord(value) ? `${lead}${flag}${space}${REDACTED}` : match,
    );
}

// A short lowercase word: `--token or --kubeconfig` in a message is prose, not a token value
// (`--token=word` is always redacted, and the run's own token is removed verbatim anyway).
function isProseWord(value: string): boolean {
  return /^[a-z]{1,12}[.,;:)]?$/.test(value);
}

// Empty, or already a redaction mark (ours, or a producer's `REDACTED` / `[redacted]`): left as is.
function isPlaceholder(value: string): boolean {
  return /^\s*(?:\[?redacted\]?)?\s*$/i.test(value);
}

/** Replaces each secret string, raw, percent-encoded or JSON-escaped, with REDACTED. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === "") continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is removed whole.
  let result = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) result = result.split(form).join(REDACTED);
  return result;
}

/**
 * A deep copy of `value` (a RunResults, or any JSON value) with every string redacted; a string
 * under a sensitive key (an `authorization` header, a `token` field) is replaced whole. Keys and
 * unknown fields are kept, so a newer optional field is scrubbed rather than dropped.
 */
export function redactResults<T>(value: T, options: RedactionOptions = {}): T {
  return redactValue(value, options.secrets ?? [], undefined) as T;
}

function redactValue(value: unknown, secrets: readonly string[], key: string | undefined): unknown {
  if (typeof value === "string") {
    if (key !== undefined && isSensitiveName(key) && !isPlaceholder(value)) return REDACTED;
    return redactText(value, secrets);
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, undefined));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redactValue(item, secrets, name)]));
  }
  return value;
}
