/**
 * The 409 an apply answers when it would change fields other managers own (Kubernetes'
 * NewConflictError, recorded from kube-apiserver 1.26.4 in recorded/): one cause per field,
 * reason FieldManagerConflict, the manager printed as Kubernetes prints it (`"A"`, `"editor" using
 * v1`, `"scaler" with subresource "scale" using apps/v1`), and a message that lists them, grouped
 * by manager when there are several.
 */
import { failure, type ApiError } from "../responses/api-error.ts";
import { goQuote } from "../responses/go-text.ts";
import { pathText, type PathElement } from "./field-set.ts";
import type { Writer } from "./managed-fields.ts";

/** One field another manager owns. */
export interface ApplyConflict {
  readonly owner: Writer;
  readonly path: readonly PathElement[];
}

/** The manager as a conflict names it. */
export function printedManager(owner: Writer): string {
  let text = goQuote(owner.manager);
  if (owner.subresource !== undefined) text += ` with subresource ${goQuote(owner.subresource)}`;
  if (owner.operation === "Update") text += ` using ${owner.apiVersion}`;
  return text;
}

/** The Conflict Status of `conflicts` (in manager order, then path order). */
export function applyConflictError(conflicts: readonly ApplyConflict[]): ApiError {
  const causes = conflicts.map((conflict) => ({ reason: "FieldManagerConflict", message: `conflict with ${printedManager(conflict.owner)}`, field: pathText(conflict.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: ${causes[0]!.message}: ${causes[0]!.field}`;
  } else {
    const lines: string[] = [];
    let last: string | undefined;
    for (const cause of causes) {
      const manager = cause.message.slice("conflict with ".length);
      if (manager !== last) lines.push(`conflicts with ${manager}:`);
      last = manager;
      lines.push(`- ${cause.field}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
  }
  return failure("Conflict", message, { causes });
}
