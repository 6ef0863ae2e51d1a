/** Finalizers a case set, dropped again so the object (and the case's namespace) can go. */
import type { CaseContext } from "../../case-context.ts";

/** Removes every finalizer of the object at `path` (cleanup, so the namespace can go; a 404 is fine). */
export async function dropFinalizers(context: CaseContext, path: string): Promise<void> {
  await context.client.patch(path, { metadata: { finalizers: null } }).catch(() => undefined);
}
