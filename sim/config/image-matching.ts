/**
 * Credential provider image matching (doc 3 §2.2), as the node agent does it: a matchImages
 * pattern and the image are both read as schemeless URLs (Go's url.Parse of `https://` + text);
 * they match when the ports are equal, the hosts have the same number of dot-separated segments,
 * each host segment matches its glob segment (Go's filepath.Match, so a glob never spans a dot),
 * and the pattern's path is a prefix of the image's path (a string prefix, as the kubelet checks).
 * The image is first normalized as the kubelet normalizes it before the lookup (`nginx` is
 * `docker.io/library/nginx`; tag and digest are dropped).
 */
import { BadPatternError, goFilepathMatch } from "./go-glob.ts";

/** The parts of a schemeless URL the matching reads. */
export interface SchemelessUrl {
  /** url.Host: the host with its port, brackets kept for IPv6. */
  readonly host: string;
  /** The decoded path, starting with `/` or empty. */
  readonly path: string;
}

/** Text Go's url.Parse rejects. */
export class SchemelessUrlError extends Error {}

// Characters Go allows in a host besides letters, digits and %-escapes (url.shouldEscape, encodeHost).
const HOST_PUNCTUATION = new Set([..."-_.~!$&'()*+,;=:[]<>\""]);

/** Parses `text` as Go's url.Parse("https://" + text) would, keeping host and path; throws SchemelessUrlError. */
export function parseSchemelessUrl(text: string): SchemelessUrl {
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new SchemelessUrlError("net/url: invalid control character in URL");
  let rest = text;
  const hash = rest.indexOf("#");
  if (hash !== -1) rest = rest.slice(0, hash);
  const question = rest.indexOf("?");
  if (question !== -1) rest = rest.slice(0, question);
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const rawPath = slash === -1 ? "" : rest.slice(slash);
  const at = authority.lastIndexOf("@");
  const host = parseHost(at === -1 ? authority : authority.slice(at + 1));
  return { host, path: unescape(rawPath, "path") };
}

function parseHost(host: string): string {
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    if (close === -1) throw new SchemelessUrlError("missing ']' in host");
    const port = host.slice(close + 1);
    if (!validOptionalPort(port)) throw new SchemelessUrlError(`invalid port ${JSON.stringify(port)} after host`);
    return unescape(host, "host");
  }
  const colon = host.lastIndexOf(":");
  if (colon !== -1 && !validOptionalPort(host.slice(colon))) {
    throw new SchemelessUrlError(`invalid port ${JSON.stringify(host.slice(colon))} after host`);
  }
  return unescape(host, "host");
}

function validOptionalPort(port: string): boolean {
  return port === "" || /^:[0-9]*$/.test(port);
}

function unescape(text: string, mode: "host" | "path"): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "%") {
      const hex = text.slice(index + 1, index + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new SchemelessUrlError(`invalid URL escape ${JSON.stringify(text.slice(index, index + 3))}`);
      out += String.fromCharCode(parseInt(hex, 16));
      index += 2;
      continue;
    }
    if (mode === "host" && char.charCodeAt(0) < 0x80 && !/[a-zA-Z0-9]/.test(char) && !HOST_PUNCTUATION.has(char)) {
      throw new SchemelessUrlError(`invalid character ${JSON.stringify(char)} in host name`);
    }
    out += char;
  }
  return out;
}

/** Go's net.SplitHostPort, falling back (as the kubelet's SplitURL does) to the whole host and no port. */
export function splitHostPort(hostPort: string): { host: string; port: string } {
  const whole = { host: hostPort, port: "" };
  const colon = hostPort.lastIndexOf(":");
  if (colon < 0) return whole;
  let host: string;
  let from = 0;
  let to = 0;
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close < 0 || close + 1 !== colon) return whole;
    host = hostPort.slice(1, close);
    from = 1;
    to = close + 1;
  } else {
    host = hostPort.slice(0, colon);
    if (host.includes(":")) return whole;
  }
  if (hostPort.slice(from).includes("[") || hostPort.slice(to).includes("]")) return whole;
  return { host, port: hostPort.slice(colon + 1) };
}

/** Why a pattern does or does not match an image. */
export type MatchVerdict =
  | { readonly matched: true }
  | { readonly matched: false; readonly reason: string };

/** The kubelet's URLsMatchStr(pattern, image): does the matchImages pattern match the (normalized) image? */
export function matchImagePattern(pattern: string, image: string): MatchVerdict {
  const glob = parseSchemelessUrl(pattern);
  const target = parseSchemelessUrl(image);
  const globHost = splitHostPort(glob.host);
  const targetHost = splitHostPort(target.host);
  if (globHost.port !== targetHost.port) return { matched: false, reason: `port ${show(globHost.port)} ≠ ${show(targetHost.port)}` };
  const globParts = globHost.host.split(".");
  const targetParts = targetHost.host.split(".");
  if (globParts.length !== targetParts.length) {
    return { matched: false, reason: `${globParts.length} domain segments ≠ ${targetParts.length}` };
  }
  if (!target.path.startsWith(glob.path)) return { matched: false, reason: `path ${glob.path} is not a prefix of ${target.path || "(none)"}` };
  for (let index = 0; index < globParts.length; index++) {
    if (!goFilepathMatch(globParts[index]!, targetParts[index]!)) {
      return { matched: false, reason: `segment ${JSON.stringify(targetParts[index])} does not match ${JSON.stringify(globParts[index])}` };
    }
  }
  return { matched: true };
}

function show(port: string): string {
  return port === "" ? "(none)" : port;
}

/** Whether `pattern` is a valid matchImages pattern; a message when it is not. */
export function imagePatternError(pattern: string): string | undefined {
  try {
    const parsed = parseSchemelessUrl(pattern);
    // A malformed glob is an error whatever it is matched against: check every segment.
    for (const segment of splitHostPort(parsed.host).host.split(".")) goFilepathMatch(segment, "");
    return undefined;
  } catch (error) {
    if (error instanceof SchemelessUrlError || error instanceof BadPatternError) return error.message;
    throw error;
  }
}

// docker/distribution reference grammar.
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*";
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`);

/** An image reference, normalized as the kubelet looks it up. */
export interface NormalizedImage {
  /** `registry.example.io/team/app`: what the credential providers are matched against. */
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** Normalizes `image` (docker.io and library/ added, tag and digest split off); throws on an invalid reference. */
export function normalizeImage(image: string): NormalizedImage {
  const match = REFERENCE.exec(image);
  if (match === null) throw new SchemelessUrlError(`invalid image reference ${JSON.stringify(image)}`);
  const name = match[1]!;
  const slash = name.indexOf("/");
  const first = slash === -1 ? "" : name.slice(0, slash);
  const hasDomain = slash !== -1 && (/[.:]/.test(first) || first === "localhost" || first.toLowerCase() !== first);
  let repository: string;
  if (!hasDomain) repository = `docker.io/${slash === -1 ? "library/" : ""}${name}`;
  else repository = first === "index.docker.io" ? `docker.io${name.slice(slash)}` : name;
  if (/[A-Z]/.test(repository.slice(repository.indexOf("/")))) throw new SchemelessUrlError(`repository name must be lowercase: ${JSON.stringify(image)}`);
  return { repository, ...(match[2] !== undefined && { tag: match[2] }), ...(match[3] !== undefined && { digest: match[3] }) };
}
