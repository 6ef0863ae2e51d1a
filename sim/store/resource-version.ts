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
