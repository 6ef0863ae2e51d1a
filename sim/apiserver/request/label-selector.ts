/**
 * The `labelSelector` query parameter: its grammar, its validation and its matching, as a
 * Kubernetes 1.26 API server parses it (k8s.io/apimachinery labels.Parse).
 *
 * Doc 1 only names selectors (doc1/2.3/remaining-item-count/omitted-with-selector); everything
 * here is Kubernetes behaviour (not shown in doc 1). Parse errors reproduce Kubernetes' message
 * text, because the server answers them verbatim in a 400 BadRequest Status (the `kubernetes`
 * dialect must read like a real server), including its oddities ("<nil>: Invalid value", the
 * missing comma in "found '' expected: '('").
 */
import { invalidValueMessage, maxLengthError, regexError, validateName } from "../validation/object-names.ts";
import { goQuote } from "../responses/go-text.ts";
import { byteLength } from "../validation/label-syntax.ts";

/**
 * A requirement's operator, named as Kubernetes names them: `=`, `==` and `!=` compare one value;
 * `in`/`notin` a set; `exists`/`!` test presence; `gt`/`lt` compare integers (`a>1`, `a<5`).
 */
export type LabelOperator = "=" | "==" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

/** One comma-separated term of a selector. `values` is sorted and duplicate-free, as Kubernetes keeps it. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** A parsed selector: the conjunction of its requirements, sorted by key. No requirements matches everything. */
export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
}

/**
 * A labelSelector or fieldSelector that does not parse or names something unsupported. The
 * server answers it as 400 BadRequest with `message` as the Status message and no details.
 */
export class SelectorParseError extends Error {
  /** HTTP status a Kubernetes server answers. */
  readonly code = 400;
  /** Status reason a Kubernetes server answers. */
  readonly reason = "BadRequest";

  constructor(message: string) {
    super(message);
    this.name = "SelectorParseError";
  }
}

/** The selector that matches every object: the one an empty or all-blank labelSelector parses to. */
export const everythingLabelSelector: LabelSelector = Object.freeze({ requirements: Object.freeze([]) });

// ---------------------------------------------------------------------------------------------
// Lexer: Kubernetes' byte lexer, step for step. Blanks are space, tab, CR and LF; the special
// symbols below end an identifier; everything else (non-ASCII included) is identifier material.
// Its reader returns 0 both at the end and for a NUL character, and its scanners consume that
// NUL without pushing it back, so a NUL ends the selector only where a token would start
// ("a \0b" is "a"; "a\0b" is "a" then "b"). Reproduced rather than simplified.

type TokenKind = "end" | "identifier" | "in" | "notin" | "(" | ")" | "," | "!" | "=" | "==" | "!=" | ">" | "<";

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const NUL = "\0";
const SPECIAL = new Set(["=", "!", "(", ")", ",", ">", "<"]);
const SYMBOLS = new Set<string>(["(", ")", ",", "!", "=", "==", "!=", ">", "<"]);
const BLANK = new Set([" ", "\t", "\r", "\n"]);

class Lexer {
  private pos = 0;

  constructor(private readonly text: string) {}

  private read(): string {
    if (this.pos >= this.text.length) return NUL;
    return this.text[this.pos++]!;
  }

  private unread(): void {
    this.pos--;
  }

  next(): Token {
    let ch = this.read();
    while (BLANK.has(ch)) ch = this.read();
    if (ch === NUL) return { kind: "end", text: "" };
    this.unread();
    return SPECIAL.has(ch) ? this.symbol() : this.word();
  }

  // The longest run of special characters that is still a token: "!=" and "==" are one token,
  // "=!" is "=" then "!", "()" is "(" then ")".
  private symbol(): Token {
    let last = "";
    let buffer = "";
    for (;;) {
      const ch = this.read();
      if (ch === NUL) break;
      if (!SPECIAL.has(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      if (SYMBOLS.has(buffer)) {
        last = buffer;
      } else {
        this.unread();
        break;
      }
    }
    return { kind: last as TokenKind, text: last };
  }

  private word(): Token {
    let buffer = "";
    for (;;) {
      const ch = this.read();
      if (ch === NUL) break;
      if (SPECIAL.has(ch) || BLANK.has(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { kind: buffer === "in" || buffer === "notin" ? buffer : "identifier", text: buffer };
  }
}

function tokenize(text: string): Token[] {
  const lexer = new Lexer(text);
  const tokens: Token[] = [];
  for (;;) {
    const token = lexer.next();
    tokens.push(token);
    if (token.kind === "end") return tokens;
  }
}

// ---------------------------------------------------------------------------------------------
// Parser: Kubernetes' recursive descent, message for message.

const BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  // In a value position `in` and `notin` are plain identifiers ("a in (in)", "in=notin").
  private peek(asValue = true): Token {
    return this.asValue(this.tokens[this.position]!, asValue);
  }

  private next(asValue = true): Token {
    const token = this.tokens[this.position]!;
    this.position++;
    return this.asValue(token, asValue);
  }

  private asValue(token: Token, asValue: boolean): Token {
    return asValue && (token.kind === "in" || token.kind === "notin") ? { kind: "identifier", text: token.text } : token;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind === "end") return requirements;
      if (token.kind !== "identifier" && token.kind !== "!") {
        throw new SelectorParseError(`found '${token.text}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === "end") return requirements;
      if (after.kind !== ",") throw new SelectorParseError(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.kind !== "identifier" && following.kind !== "!") {
        throw new SelectorParseError(`found '${following.text}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    try {
      return this.requirementBody();
    } catch (error) {
      if (error instanceof RequirementError) throw new SelectorParseError(`unable to parse requirement: ${error.message}`);
      throw error;
    }
  }

  private requirementBody(): LabelRequirement {
    let token = this.next();
    let negated = false;
    if (token.kind === "!") {
      negated = true;
      token = this.next();
    }
    if (token.kind !== "identifier") throw new RequirementError(`found '${token.text}', expected: identifier`);
    const key = token.text;
    // The parser checks the key with no field path, which Go prints as "<nil>".
    const keyProblems = labelKeyErrors(key);
    if (keyProblems.length > 0) throw new RequirementError(`<nil>: ${invalidValueMessage(key, keyProblems.join("; "))}`);

    const lookahead = this.peek().kind;
    // "!key" is complete whatever follows; anything after it is the caller's ',' or end check.
    if (negated) return newRequirement(key, "!", []);
    if (lookahead === "end" || lookahead === ",") return newRequirement(key, "exists", []);

    const operatorToken = this.next(false);
    const operator = OPERATOR_OF_TOKEN.get(operatorToken.kind);
    if (operator === undefined) throw new RequirementError(`found '${operatorToken.text}', expected: ${BINARY_OPERATORS}`);
    const values = operator === "in" || operator === "notin" ? this.valueSet() : this.exactValue();
    return newRequirement(key, operator, [...values].sort(compareStrings));
  }

  private valueSet(): Set<string> {
    const open = this.next();
    if (open.kind !== "(") throw new RequirementError(`found '${open.text}' expected: '('`);
    const first = this.peek();
    if (first.kind === ")") {
      this.next();
      return new Set([""]); // "a in ()" is the set holding the empty value
    }
    if (first.kind !== "identifier" && first.kind !== ",") {
      throw new RequirementError(`found '${first.text}', expected: ',', ')' or identifier`);
    }
    const values = this.identifierList();
    // The identifier list only returns in front of ")", so this cannot fail; Kubernetes keeps
    // the check (quoting the first value token), and so does this parser.
    if (this.next().kind !== ")") throw new RequirementError(`found '${first.text}', expected: ')'`);
    return values;
  }

  // Values separated by commas, any of them possibly empty: "(,a)", "(a,,b)", "(a,)". Kubernetes'
  // loop rejects "(a,,)" and "(,,)" (the second ',' is taken as an empty value, leaving ')' where
  // a value must come); that quirk is kept, a real server answers those with 400 too.
  private identifierList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const token = this.next();
      if (token.kind === "identifier") {
        values.add(token.text);
        const after = this.peek();
        if (after.kind === ",") continue;
        if (after.kind === ")") return values;
        throw new RequirementError(`found '${after.text}', expected: ',' or ')'`);
      }
      if (token.kind === ",") {
        if (values.size === 0) values.add("");
        const after = this.peek().kind;
        if (after === ")") {
          values.add("");
          return values;
        }
        if (after === ",") {
          this.next();
          values.add("");
        }
        continue;
      }
      throw new RequirementError(`found '${token.text}', expected: ',', or identifier`);
    }
  }

  private exactValue(): Set<string> {
    const lookahead = this.peek().kind;
    if (lookahead === "end" || lookahead === ",") return new Set([""]); // "a=" selects the empty value
    const token = this.next();
    if (token.kind === "identifier") return new Set([token.text]);
    throw new RequirementError(`found '${token.text}', expected: identifier`);
  }
}

// An error inside one requirement: the parser prefixes "unable to parse requirement: ".
class RequirementError extends Error {}

const OPERATOR_OF_TOKEN = new Map<TokenKind, LabelOperator>([
  ["in", "in"],
  ["notin", "notin"],
  ["=", "="],
  ["==", "=="],
  ["!=", "!="],
  [">", "gt"],
  ["<", "lt"],
]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64.
function parseInt64(text: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

// Kubernetes' NewRequirement checks, in its order, aggregated into one message.
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const problems: string[] = [];
  const keyProblems = labelKeyErrors(key);
  if (keyProblems.length > 0) problems.push(`key: ${invalidValueMessage(key, keyProblems.join("; "))}`);
  if (operator === "gt" || operator === "lt") {
    if (values.length !== 1) problems.push(`values: Invalid value: ${goList(values)}: for 'Gt', 'Lt' operators, exactly one value is required`);
    values.forEach((value, index) => {
      if (parseInt64(value) === undefined) {
        problems.push(`values[${index}]: ${invalidValueMessage(value, "for 'Gt', 'Lt' operators, the value must be an integer")}`);
      }
    });
  }
  values.forEach((value, index) => {
    const valueProblems = labelValueErrors(value);
    if (valueProblems.length > 0) problems.push(`values[${index}][${key}]: ${invalidValueMessage(value, valueProblems.join("; "))}`);
  });
  if (problems.length > 0) {
    const unique = [...new Set(problems)];
    throw new RequirementError(unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`);
  }
  return Object.freeze({ key, operator, values: Object.freeze(values) });
}

// Go's %#v of a []string, the BadValue of a value-count error (unreachable from the parser,
// which always yields one value for gt/lt, but kept so the message is right if it ever is not).
function goList(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(", ")}}`;
}

// Go's sort.Strings order (bytewise); for the UTF-16 strings here, code-unit order is the same
// for everything a valid label value can hold (ASCII).
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Label key and value syntax (k8s.io/apimachinery validation.IsQualifiedName, IsValidLabelValue).

const NAME_PATTERN = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const NAME_REGEX = new RegExp(`^${NAME_PATTERN}$`);
const NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const VALUE_PATTERN = `(${NAME_PATTERN})?`;
const VALUE_REGEX = new RegExp(`^${VALUE_PATTERN}$`);
const VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const MAX_NAME_LENGTH = 63;

/**
 * Kubernetes' problems with a label key: an optional DNS-subdomain prefix and '/', then a name of
 * at most 63 characters of `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`. Empty when valid.
 */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split("/");
  const problems: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) problems.push("prefix part must be non-empty");
    else for (const problem of validateName("subdomain", prefix)) problems.push(`prefix part ${problem}`);
  } else {
    return [
      `a qualified name ${regexError(NAME_MESSAGE, NAME_PATTERN, ["MyName", "my.name", "123-abc"])} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) problems.push("name part must be non-empty");
  else if (byteLength(name) > MAX_NAME_LENGTH) problems.push(`name part ${maxLengthError(MAX_NAME_LENGTH)}`);
  if (!NAME_REGEX.test(name)) problems.push(`name part ${regexError(NAME_MESSAGE, NAME_PATTERN, ["MyName", "my.name", "123-abc"])}`);
  return problems;
}

/** Kubernetes' problems with a label value: at most 63 characters, empty or a name. Empty when valid. */
export function labelValueErrors(value: string): string[] {
  const problems: string[] = [];
  if (byteLength(value) > MAX_NAME_LENGTH) problems.push(maxLengthError(MAX_NAME_LENGTH));
  if (!VALUE_REGEX.test(value)) problems.push(regexError(VALUE_MESSAGE, VALUE_PATTERN, ["MyValue", "my_value", "12345"]));
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Public API.

/**
 * Parses a labelSelector. Requirements come back sorted by key (stably), values sorted and
 * de-duplicated. Throws SelectorParseError with Kubernetes' message when the text is not a
 * selector or a key or value is not valid label syntax.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = new Parser(tokenize(text)).parse();
  if (requirements.length === 0) return everythingLabelSelector;
  requirements.sort((a, b) => compareStrings(a.key, b.key));
  return Object.freeze({ requirements: Object.freeze(requirements) });
}

/** Whether the selector selects nothing out (no requirements). */
export function isEverythingLabelSelector(selector: LabelSelector): boolean {
  return selector.requirements.length === 0;
}

/** Whether an object with `labels` (none when undefined) satisfies every requirement of `selector`. */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector.requirements.every((requirement) => matchesRequirement(requirement, labels ?? {}));
}

/** Whether one requirement holds for `labels`; Kubernetes' truth table, absent keys included. */
export function matchesRequirement(requirement: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const present = Object.hasOwn(labels, requirement.key);
  const value = present ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case "=":
    case "==":
    case "in":
      return value !== undefined && requirement.values.includes(value);
    case "!=":
    case "notin":
      // An absent key is "not equal": `tier!=prod` selects objects without a tier label.
      return value === undefined || !requirement.values.includes(value);
    case "exists":
      return present;
    case "!":
      return !present;
    case "gt":
    case "lt": {
      // Absent, non-integer or out-of-int64 label values never satisfy an integer comparison.
      if (value === undefined || requirement.values.length !== 1) return false;
      const actual = parseInt64(value);
      const bound = parseInt64(requirement.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return requirement.operator === "gt" ? actual > bound : actual < bound;
    }
  }
}

/**
 * The selector as Kubernetes prints it (Selector.String()): requirements joined by ",",
 * `key in (a,b)`, `!key`, `key>1`. Parsing the result gives the same selector back.
 */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector.requirements.map(formatRequirement).join(",");
}

function formatRequirement(requirement: LabelRequirement): string {
  const values = [...requirement.values].sort(compareStrings).join(",");
  switch (requirement.operator) {
    case "exists":
      return requirement.key;
    case "!":
      return `!${requirement.key}`;
    case "in":
    case "notin":
      return `${requirement.key} ${requirement.operator} (${values})`;
    case "gt":
      return `${requirement.key}>${values}`;
    case "lt":
      return `${requirement.key}<${values}`;
    default:
      return `${requirement.key}${requirement.operator}${values}`;
  }
}
