/**
 * Which revision a get or list reads, from the decision tables of doc 1 §4.7 (spec/doc1): Most
 * Recent and Any read the latest; Not older than waits (bounded) until the store reaches the
 * version, then reads the latest, which is not older; Exact reads that revision from history;
 * Continue Token, Exact reads the revision inside the token.
 */
import { lookupGetSemantic, lookupListSemantic, type TableLookup, type ReadSemantic } from "../../../spec/doc1/resource-version-tables.ts";
import { StoreError } from "../../store/errors.ts";
import { badRequest, failure, fromStoreError } from "../responses/api-error.ts";
import { optional } from "./query-options.ts";
import type { ServerContext } from "../server-context.ts";

/** Where a list reads: a revision (latest when undefined) or a continue token. */
export type ListRead = { readonly revision: number | undefined; readonly exact: boolean } | { readonly continueToken: string };

/** The revision a resourceVersion names; 400 when it is not one this server emits (deviation rv-unparseable). */
export function parseResourceVersion(context: Pick<ServerContext, "store">, resourceVersion: string): number {
  const revision = context.store.resourceVersions.parse(resourceVersion);
  if (revision === undefined) throw badRequest(`invalid resource version: ${JSON.stringify(resourceVersion)}`);
  return revision;
}

/** Waits until the store reaches `revision`, or fails with doc 1 §7's 504. */
export async function awaitRevision(context: ServerContext, revision: number): Promise<void> {
  try {
    await context.store.waitForRevision(revision, context.tooLargeResourceVersionWaitMs);
  } catch (error) {
    if (error instanceof StoreError) throw fromStoreError(error, { resource: "", group: "" }, "", (r) => context.store.formatRevision(r));
    throw error;
  }
}

/** The revision a get reads (undefined: the latest), after any wait. */
export async function getReadRevision(context: ServerContext, query: URLSearchParams): Promise<number | undefined> {
  const resourceVersion = optional(query, "resourceVersion");
  const semantic = semanticOrThrow(context, lookupGetSemantic({ resourceVersion }));
  if (semantic === "NotOlderThan") await awaitRevision(context, parseResourceVersion(context, resourceVersion!));
  return undefined;
}

/** Where a list reads, after any wait. */
export async function listRead(context: ServerContext, query: URLSearchParams): Promise<ListRead> {
  const resourceVersion = optional(query, "resourceVersion");
  const continueToken = optional(query, "continue");
  const lookup = lookupListSemantic({
    resourceVersion,
    resourceVersionMatch: optional(query, "resourceVersionMatch"),
    limit: optional(query, "limit"),
    continueToken,
  });
  const semantic = semanticOrThrow(context, lookup);
  switch (semantic) {
    case "MostRecent":
    case "Any":
      return { revision: undefined, exact: false };
    case "NotOlderThan":
      await awaitRevision(context, parseResourceVersion(context, resourceVersion!));
      return { revision: undefined, exact: false };
    case "Exact": {
      const revision = parseResourceVersion(context, resourceVersion!);
      // Kubernetes answers a future Exact with 500; we wait and answer 504 (deviation future-exact).
      await awaitRevision(context, revision);
      return { revision, exact: true };
    }
    case "ContinueTokenExact":
      return { continueToken: continueToken! };
  }
}

function semanticOrThrow(context: ServerContext, lookup: TableLookup<ReadSemantic>): ReadSemantic {
  if (lookup.kind === "semantic") return lookup.semantic;
  if (lookup.status === 400) throw badRequest(lookup.message);
  const metaGroup = context.dialect.metaGroup;
  const causes = lookup.causes.map((cause) => ({ reason: cause.type, message: cause.message, field: cause.field }));
  const summary = causes.map((cause) => `${cause.field}: ${cause.message}`).join(", ");
  throw failure("Invalid", `ListOptions.${metaGroup} "" is invalid: ${summary}`, { group: metaGroup, kind: "ListOptions", causes });
}
