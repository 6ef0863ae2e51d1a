/**
 * One pass over a history that every checker shares: operations by id and by kind, writes by the
 * unique value they set, acknowledged deletes by the uid they removed, and each write's outcome.
 */
import type { ApiHistory, GetOperation, ListOperation, Operation, WatchOperation, WriteOperation } from "./api-history.ts";

/**
 * What a write's answer says about its effect. A 5xx (504 Timeout, 500 etcd timeout) is as
 * uncertain as no answer: the server may still commit the write after answering. Every other
 * error (4xx) means the write did not happen.
 */
export type WriteOutcome = "acknowledged" | "failed" | "uncertain";

export function writeOutcome(write: WriteOperation): WriteOutcome {
  switch (write.answer.type) {
    case "ok":
      return "acknowledged";
    case "uncertain":
      return "uncertain";
    case "failed":
      return write.answer.code >= 500 ? "uncertain" : "failed";
  }
}

/** The history's operations, indexed. */
export class OperationIndex {
  readonly byId = new Map<number, Operation>();
  readonly writes: WriteOperation[] = [];
  readonly watches: WatchOperation[] = [];
  readonly gets: GetOperation[] = [];
  readonly lists: ListOperation[] = [];
  /** The write that set each value (the recorder promises one per value; the first wins otherwise). */
  readonly writeByValue = new Map<string, WriteOperation>();
  /** Acknowledged deletes by the uid of the object their answer returned. */
  readonly deleteByUid = new Map<string, WriteOperation>();

  constructor(readonly history: ApiHistory) {
    for (const operation of history.operations) {
      this.byId.set(operation.id, operation);
      switch (operation.kind) {
        case "write":
          this.writes.push(operation);
          if (operation.value !== undefined && !this.writeByValue.has(operation.value)) this.writeByValue.set(operation.value, operation);
          if (operation.verb === "delete" && operation.answer.type === "ok" && !this.deleteByUid.has(operation.answer.object.uid)) {
            this.deleteByUid.set(operation.answer.object.uid, operation);
          }
          break;
        case "watch":
          this.watches.push(operation);
          break;
        case "get":
          this.gets.push(operation);
          break;
        case "list":
          this.lists.push(operation);
          break;
      }
    }
  }

  operation(id: number): Operation | undefined {
    return this.byId.get(id);
  }
}
