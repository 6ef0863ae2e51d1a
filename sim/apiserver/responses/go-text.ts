/**
 * Text as Go writes it, where Kubernetes' answers carry it: strings quoted as %q in messages, and
 * JSON bodies with Go's HTML escaping. In one place, so every answer quotes alike.
 */

/**
 * A string quoted as Go's %q (strconv.Quote) quotes it, which is how Kubernetes puts names and
 * values in messages. It differs from JSON.stringify on control characters (`\x01`, not `\u0001`)
 * and on non-printable Unicode, so a message built with JSON would not match a real server's.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code in GO_SHORT_ESCAPES) out += GO_SHORT_ESCAPES[code];
    else if (code < 0x80) out += `\\x${hex(code, 2)}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += "\ufffd"; // a lone surrogate reaches Go as U+FFFD, which it prints
    else if (NOT_PRINTABLE.test(char)) out += code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    else out += char;
  }
  return `${out}"`;
}

const GO_SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x07: "\\a",
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0b: "\\v",
  0x0c: "\\f",
  0x0d: "\\r",
};

// Go's unicode.IsPrint is false for control, format, private-use, unassigned and separator
// characters (other than the ASCII space, handled above).
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}

/** `json.MarshalIndent(value, "", "  ")`: indented, with <, > and & escaped as Go escapes them. */
export function goIndentedJson(value: unknown): string {
  return goEscape(JSON.stringify(value, null, 2));
}

/**
 * A JSON body as Kubernetes' JSON serializer writes it: compact, Go's HTML escaping (`<none>` in
 * a Table cell is `\u003cnone\u003e` in transcripts table-*), and a trailing newline.
 */
export function goJson(value: unknown): string {
  return `${goJsonFragment(value)}\n`;
}

/** goJson without its trailing newline: a value that goes inside a larger body. */
export function goJsonFragment(value: unknown): string {
  return goEscape(JSON.stringify(value));
}

const GO_ESCAPED = /[<>&\u2028\u2029]/g;
const GO_ESCAPES: Readonly<Record<string, string>> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

// One pass, and none at all for the common body without those characters (every response is escaped).
function goEscape(json: string): string {
  GO_ESCAPED.lastIndex = 0;
  return GO_ESCAPED.test(json) ? json.replace(GO_ESCAPED, (character) => GO_ESCAPES[character]!) : json;
}
