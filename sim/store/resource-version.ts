/**
 * How store revisions appear as `metadata.resourceVersion`. Doc 1 §4.7: versions are opaque
 * strings compared only for equality; the store counts with integers and a codec turns them into
 * strings and back. Decimal is what real servers emit; another codec can make them non-numeric.
 */
export interface ResourceVersionCodec {
  /** The opaque string for a revision. */
  format(revision: number): string;
  /** The revision a string names, or undefined when the string is not one this codec emits. */
  parse(resourceVersion: string): number | undefined;
}

/** Decimal revisions ("42"), as etcd-backed servers emit them. */
export const decimalResourceVersions: ResourceVersionCodec = {
  format: (revision) => String(revision),
  parse: (resourceVersion) => {
    if (!/^[1-9][0-9]{0,15}$/.test(resourceVersion)) return undefined;
    const revision = Number(resourceVersion);
    return Number.isSafeInteger(revision) ? revision : undefined;
  },
};

/**
 * Non-numeric revisions ("rv.2s"), for `serve --opaque-resource-versions`: a client that parses or
 * orders resourceVersions, against doc 1 §4.7, breaks at once instead of in production.
 */
export const opaqueResourceVersions: ResourceVersionCodec = {
  format: (revision) => `rv.${revision.toString(36)}`,
  parse: (resourceVersion) => {
    const match = /^rv\.([0-9a-z]{1,11})$/.exec(resourceVersion);
    if (match === null) return undefined;
    const revision = parseInt(match[1]!, 36);
    return Number.isSafeInteger(revision) && revision > 0 && opaqueResourceVersions.format(revision) === resourceVersion ? revision : undefined;
  },
};
