/**
 * A small, strict XML 1.0 parser for tests: it rejects what CI parsers reject (a character XML
 * forbids, a bare `&` or `<`, an unknown entity, `]]>` in text, a duplicate or unquoted
 * attribute, mismatched tags, more than one root, `--` in a comment) and returns the element tree
 * with entities decoded, so tests can assert on structure and on round-tripped values.
 * No DTDs, namespaces or processing instructions other than the XML declaration.
 */

/** An element: name, decoded attributes, and children (elements and decoded text). */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly (XmlElement | string)[];
}

/** A document that is not well-formed; the message gives the offset. */
export class XmlSyntaxError extends Error {}

const NAME = /[A-Za-z_:][A-Za-z0-9_.:-]*/y;
const ALLOWED_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** Parses a whole document; throws XmlSyntaxError on the first problem. */
export function parseXml(source: string): XmlElement {
  if (!ALLOWED_CHAR.test(source)) {
    const at = [...source].findIndex((char) => !ALLOWED_CHAR.test(char));
    throw new XmlSyntaxError(`character not allowed in XML 1.0 at code point ${at}`);
  }
  return new Parser(source).document();
}

/** The element children of `element` named `name`. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== "string" && (name === undefined || child.name === name));
}

/** The concatenated text content of `element` and its descendants. */
export function textContent(element: XmlElement): string {
  return element.children.map((child) => (typeof child === "string" ? child : textContent(child))).join("");
}

class Parser {
  private at = 0;

  constructor(private readonly source: string) {}

  document(): XmlElement {
    if (this.source.startsWith("<?xml")) {
      const end = this.source.indexOf("?>");
      if (end === -1) this.fail("unterminated XML declaration");
      if (!/^<\?xml version="1\.[0-9]"( encoding="[A-Za-z0-9._-]+")?( standalone="(yes|no)")?\s*\?>$/.test(this.source.slice(0, end + 2))) {
        this.fail("malformed XML declaration");
      }
      this.at = end + 2;
    }
    this.misc();
    if (this.source[this.at] !== "<") this.fail("expected the root element");
    const root = this.element();
    this.misc();
    if (this.at !== this.source.length) this.fail("content after the root element");
    return root;
  }

  // Whitespace and comments between top-level constructs.
  private misc(): void {
    for (;;) {
      while (/\s/.test(this.source[this.at] ?? "")) this.at++;
      if (this.source.startsWith("<!--", this.at)) this.comment();
      else return;
    }
  }

  private comment(): void {
    const end = this.source.indexOf("-->", this.at + 4);
    if (end === -1) this.fail("unterminated comment");
    if (this.source.slice(this.at + 4, end).includes("--")) this.fail("-- inside a comment");
    this.at = end + 3;
  }

  private element(): XmlElement {
    this.expect("<");
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const hadSpace = this.skipSpace();
      if (this.source.startsWith("/>", this.at)) {
        this.at += 2;
        return { name, attributes, children: [] };
      }
      if (this.source[this.at] === ">") {
        this.at++;
        break;
      }
      if (!hadSpace) this.fail("expected whitespace before an attribute");
      const attribute = this.name();
      if (Object.hasOwn(attributes, attribute)) this.fail(`duplicate attribute ${attribute}`);
      this.skipSpace();
      this.expect("=");
      this.skipSpace();
      const quote = this.source[this.at];
      if (quote !== '"' && quote !== "'") this.fail(`attribute ${attribute} is not quoted`);
      const end = this.source.indexOf(quote, this.at + 1);
      if (end === -1) this.fail("unterminated attribute value");
      const raw = this.source.slice(this.at + 1, end);
      if (raw.includes("<")) this.fail(`< in attribute ${attribute}`);
      // Attribute-value normalization: literal whitespace becomes a space; references survive.
      attributes[attribute] = this.decode(raw.replace(/[\t\n\r]/g, " "), this.at + 1);
      this.at = end + 1;
    }
    const children: (XmlElement | string)[] = [];
    for (;;) {
      if (this.at >= this.source.length) this.fail(`unclosed element ${name}`);
      if (this.source.startsWith("</", this.at)) {
        this.at += 2;
        const closing = this.name();
        if (closing !== name) this.fail(`</${closing}> closes <${name}>`);
        this.skipSpace();
        this.expect(">");
        return { name, attributes, children };
      }
      if (this.source.startsWith("<!--", this.at)) this.comment();
      else if (this.source.startsWith("<![CDATA[", this.at)) {
        const end = this.source.indexOf("]]>", this.at);
        if (end === -1) this.fail("unterminated CDATA section");
        children.push(this.source.slice(this.at + 9, end));
        this.at = end + 3;
      } else if (this.source[this.at] === "<") children.push(this.element());
      else {
        const next = this.source.indexOf("<", this.at);
        const end = next === -1 ? this.source.length : next;
        const raw = this.source.slice(this.at, end);
        if (raw.includes("]]>")) this.fail("]]> in text");
        children.push(this.decode(raw, this.at));
        this.at = end;
      }
    }
  }

  private decode(raw: string, offset: number): string {
    return raw.replace(/&([^;]*);?/g, (match, body: string) => {
      if (!match.endsWith(";")) this.fail(`bare & at ${offset}`);
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
      if (Object.hasOwn(named, body)) return named[body]!;
      const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
      if (numeric === null) this.fail(`unknown entity &${body}; near ${offset}`);
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
      const char = code <= 0x10ffff ? String.fromCodePoint(code) : "";
      if (char === "" || !ALLOWED_CHAR.test(char)) this.fail(`character reference &${body}; is not an XML 1.0 character`);
      return char;
    });
  }

  private name(): string {
    NAME.lastIndex = this.at;
    const match = NAME.exec(this.source);
    if (match === null) this.fail("expected a name");
    this.at += match[0].length;
    return match[0];
  }

  private skipSpace(): boolean {
    const start = this.at;
    while (/[ \t\r\n]/.test(this.source[this.at] ?? "")) this.at++;
    return this.at > start;
  }

  private expect(text: string): void {
    if (!this.source.startsWith(text, this.at)) this.fail(`expected ${text}`);
    this.at += text.length;
  }

  private fail(problem: string): never {
    throw new XmlSyntaxError(`${problem} (offset ${this.at})`);
  }
}
