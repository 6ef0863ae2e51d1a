/** How a case body says it did not pass: a failed check, or a skip with its reason. */

/** A check failed: the server departed from the clause. */
export class CaseFailure extends Error {}

/** The case cannot run against this target; the reason is reported. */
export class CaseSkipped extends Error {}

/** The run was interrupted (Ctrl-C) while the case ran: it is reported skipped, never passed. */
export class CaseInterrupted extends Error {}
