/**
 * The leader election record kept in a Lease (doc 2 §2.2, `--leader-elect-resource-lock leases`)
 * and the comparison client-go makes to notice that it changed.
 */
import type { Lease, LeaseSpec } from "./api-objects.ts";

/** The record's fields, as client-go's LeaderElectionRecord maps them onto a Lease. */
export interface ElectionRecord {
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string;
  readonly renewTime: string;
  readonly leaseTransitions: number;
}

/** The record in `lease` (missing fields as client-go reads them: empty, zero). */
export function recordOf(lease: Lease): ElectionRecord {
  const spec: LeaseSpec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? "",
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: spec.acquireTime ?? "",
    renewTime: spec.renewTime ?? "",
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

/**
 * The record's raw form: client-go compares raw records byte for byte to decide whether the
 * holder's record changed since it last looked (`observedRawRecord`).
 */
export function rawRecord(record: ElectionRecord): string {
  return JSON.stringify([record.holderIdentity, record.leaseDurationSeconds, record.acquireTime, record.renewTime, record.leaseTransitions]);
}

/** `lease` carrying `record` (metadata kept: its resourceVersion is the write's precondition). */
export function withRecord(lease: Lease, record: ElectionRecord): Lease {
  return { metadata: lease.metadata, spec: { ...record } };
}
