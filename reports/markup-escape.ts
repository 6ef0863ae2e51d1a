/**
 * Escaping for XML (JUnit) and HTML (report.html): the five special characters, and the characters
 * XML 1.0 forbids (C0 controls other than tab, LF and CR, lone surrogates, U+FFFE and U+FFFF),
 * which no escape can carry and which many CI parsers reject outright. C1 controls (U+007F to
 * U+009F) are legal XML 1.0 but parse errors in HTML and choke some parsers, so they go too.
 */

// Every character that cannot appear in an XML 1.0 document, plus the C1 controls.
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces forbidden characters with a visible `\uXXXX` (controls) or U+FFFD (lone surrogates). */
export function replaceForbiddenChars(text: string): string {
  return text.replace(FORBIDDEN, (char) => {
    const code = char.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) return "\uFFFD";
    return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
  });
}

/** Escapes text content of an XML or HTML element (`]]>` cannot survive: `>` is escaped). */
export function escapeMarkupText(text: string): string {
  return replaceForbiddenChars(text).replace(/[&<>]/g, (char) => ENTITIES[char]!);
}

/** Escapes a double- or single-quoted attribute value; tab, LF and CR survive attribute normalization. */
export function escapeMarkupAttr(text: string): string {
  return replaceForbiddenChars(text).replace(/[&<>"'\t\n\r]/g, (char) => ENTITIES[char]!);
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};
