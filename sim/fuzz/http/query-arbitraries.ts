/**
 * Query strings with good and bad values (issue #14: limit, continue tokens random, with a byte
 * flipped or from another server, resourceVersion, resourceVersionMatch, watch, timeoutSeconds,
 * label and field selectors, dryRun, fieldValidation), plus the delete and write options and
 * parameters no server knows. Values are written raw or percent-encoded, repeated or bare.
 */
import fc from "fast-check";
import { LANE_LABEL } from "./fuzz-kinds.ts";
import { PLACEHOLDERS } from "./fuzz-request.ts";

const P = PLACEHOLDERS;
const INTEGERS = ["0", "1", "2", "-1", "500", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1.5", "1e3", "abc", "", " 1", "+1", "0x10", "١"];

const VALUES: Readonly<Record<string, readonly string[]>> = {
  limit: INTEGERS,
  continue: [P.continueToken, P.flippedContinueToken, P.foreignContinueToken, "", "abc", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0", "%%%", "a".repeat(5000)],
  resourceVersion: [P.resourceVersion, P.futureResourceVersion, "0", "", "-1", "abc", "1e3", "18446744073709551616", " 1", "0x1", "１"],
  resourceVersionMatch: ["Exact", "NotOlderThan", "", "exact", "MostRecent", "Bogus"],
  // watch is in the reads' own list: a watch is held open, so it is drawn less often (see readQuery).
  timeoutSeconds: INTEGERS,
  labelSelector: [
    "a=b",
    "a!=b",
    "a in (b,c)",
    "a notin (b)",
    "a",
    "!a",
    `${LANE_LABEL}=0`,
    "a=",
    "=b",
    "a==b",
    "a in (",
    "a in ()",
    "a=b,,c=d",
    "A/B=c",
    "a=" + "b".repeat(100),
    "x".repeat(20_000),
    "é=ü",
    "a=b)",
    "a<1",
    "a>1",
  ],
  fieldSelector: [
    "metadata.name=x",
    "metadata.name!=x",
    "metadata.namespace=default",
    "metadata.name==x",
    "status.phase=Running",
    "spec.nodeName=",
    "type=Opaque",
    "involvedObject.name=fz",
    "no.such.field=x",
    "metadata.name",
    "metadata.name in (x)",
    "=x",
    "metadata.name=x,metadata.name=y",
    "metadata.name=" + "x".repeat(10_000),
  ],
  dryRun: ["All", "", "all", "Bogus", "All,All"],
  fieldValidation: ["Strict", "Warn", "Ignore", "", "strict", "Bogus"],
  fieldManager: ["fuzz", "", "x".repeat(200), "é", "a\tb"],
  allowWatchBookmarks: ["true", "false", "", "1", "yes"],
  sendInitialEvents: ["true", "false", "", "x"],
  pretty: ["true", "false", "", "1", "x"],
  gracePeriodSeconds: INTEGERS,
  propagationPolicy: ["Foreground", "Background", "Orphan", "", "Bogus", "foreground"],
  orphanDependents: ["true", "false", "", "x"],
  force: ["true", "false", "", "x"],
  export: ["true", "x"],
  includeObject: ["Object", "Metadata", "None", "x"],
  "no-such-parameter": ["x", ""],
};

const NAMES = Object.keys(VALUES);

/** One `name=value` pair as written on the wire. */
function parameterArbitrary(names: readonly string[]): fc.Arbitrary<string> {
  return fc.constantFrom(...names).chain((name) =>
    fc.tuple(fc.constantFrom(...VALUES[name]!), fc.constantFrom("plain", "plain", "plain", "encoded", "bare", "empty-name")).map(([value, form]) => {
      if (form === "bare") return name;
      if (form === "empty-name") return `=${encodeURIComponent(value)}`;
      return `${name}=${form === "encoded" ? [...value].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`).join("") : encodeQueryValue(value)}`;
    }),
  );
}

// Placeholders stay readable (the driver fills them in); everything else is encoded as a client would.
function encodeQueryValue(value: string): string {
  return value.startsWith("$") && value.endsWith("$") ? value : encodeURIComponent(value);
}

/** A query for a read: a few parameters, now and then a watch. */
export function readQueryArbitrary(): fc.Arbitrary<string> {
  const watch = fc.constantFrom("watch=1", "watch=true", "watch=0", "watch=false", "watch=", "watch=yes", "watch=1&timeoutSeconds=1");
  return fc
    .tuple(fc.array(parameterArbitrary(NAMES), { maxLength: 4 }), fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, watch), fc.constantFrom("", "", "", "&", "&&", "#frag"))
    .map(([parameters, watchParameter, tail]) => [...parameters, ...(watchParameter === undefined ? [] : [watchParameter])].join("&") + tail);
}

/** A query for a write: the write options, sometimes with noise; never a watch. */
export function writeQueryArbitrary(): fc.Arbitrary<string> {
  const names = ["dryRun", "fieldValidation", "fieldManager", "pretty", "gracePeriodSeconds", "propagationPolicy", "orphanDependents", "force", "resourceVersion", "no-such-parameter", "limit"];
  return fc.array(parameterArbitrary(names), { maxLength: 3 }).map((parameters) => parameters.join("&"));
}

/**
 * The query of a DELETE: the lane's label selector comes first, so that if the path names a
 * collection, the delete can only reach the lane's own objects (Go and URLSearchParams both take
 * the first value of a repeated parameter); what follows can only narrow it.
 */
export function deleteQueryArbitrary(lane: number): fc.Arbitrary<string> {
  const narrowing = fc.constantFrom("", "", ",a=b", ",!a", ",a in (", ",x!=y");
  return fc.tuple(narrowing, writeQueryArbitrary()).map(([extra, rest]) => [`labelSelector=${encodeURIComponent(`${LANE_LABEL}=${lane}${extra}`)}`, ...(rest === "" ? [] : [rest])].join("&"));
}
