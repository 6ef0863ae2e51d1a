/**
 * A soak violation's witness in words (issue 15): each operation it names on one line (its id,
 * client, times since the start of the history, what it asked and what came back), and under a
 * watch the events that matter. The terminal, soak.md and junit.xml all print these lines.
 */
import type { ApiHistory, ListOperation, ObjectState, Operation, WatchEvent, WatchOperation, WriteOperation } from "../sim/history/api-history.ts";
import type { HistoryWitness } from "../sim/history/history-verdict.ts";

/** Items of a list shown before "… and N more". */
const LIST_ITEMS_SHOWN = 12;

/** One line per witness operation, its witnessed events indented under it. */
export function witnessLines(history: ApiHistory, witness: HistoryWitness): string[] {
  const byId = new Map(history.operations.map((operation) => [operation.id, operation]));
  const ids = [...new Set([...witness.operations, ...witness.events.map((event) => event.operation)])].sort((a, b) => {
    const left = byId.get(a);
    const right = byId.get(b);
    return (left?.startMs ?? 0) - (right?.startMs ?? 0) || a - b;
  });
  const lines: string[] = [];
  for (const id of ids) {
    const operation = byId.get(id);
    if (operation === undefined) {
      lines.push(`#${id} (not in the history)`);
      continue;
    }
    lines.push(operationLine(history, operation));
    if (operation.kind !== "watch") continue;
    for (const ref of witness.events.filter((event) => event.operation === id).sort((a, b) => a.index - b.index)) {
      const event = operation.events[ref.index];
      lines.push(event === undefined ? `    event ${ref.index}: (not in the history)` : `    event ${ref.index} at ${time(event.atMs)} ms: ${eventText(event)}`);
    }
  }
  return lines;
}

/** `#812 writer-2 12345.0–12351.2 ms update soak-k01 …`. */
export function operationLine(history: ApiHistory, operation: Operation): string {
  const span = `${time(operation.startMs)}–${operation.endMs === undefined ? "?" : time(operation.endMs)} ms`;
  return `#${operation.id} ${operation.client} ${span} ${operationText(operation)}`;
}

function operationText(operation: Operation): string {
  switch (operation.kind) {
    case "write":
      return writeText(operation);
    case "get": {
      const answer = operation.answer.type === "ok" ? `200 ${stateText(operation.answer.object)}` : answerText(operation.answer);
      return `get ${operation.name}${versionText(operation.resourceVersion, undefined)} → ${answer}`;
    }
    case "list":
      return listText(operation);
    case "watch":
      return watchText(operation);
  }
}

function writeText(operation: WriteOperation): string {
  const sets = [
    ...(operation.value === undefined ? [] : [`v=${operation.value}`]),
    ...Object.entries(operation.labels ?? {}).map(([name, value]) => (value === null ? `-${name}` : `${name}=${value}`)),
  ];
  const condition = operation.precondition === undefined ? "" : ` if rv=${operation.precondition}`;
  const answer = operation.answer.type === "ok" ? `${operation.answer.code} ${stateText(operation.answer.object)}` : answerText(operation.answer);
  return `${operation.verb} ${operation.name}${condition}${sets.length === 0 ? "" : ` (${sets.join(", ")})`} → ${answer}`;
}

function listText(operation: ListOperation): string {
  const request = [
    "list",
    ...(operation.labelSelector === undefined ? [] : [`selector ${operation.labelSelector}`]),
    versionText(operation.resourceVersion, operation.resourceVersionMatch).trim(),
    ...(operation.limit === undefined ? [] : [`limit ${operation.limit}`]),
  ].filter((part) => part !== "");
  const pages = operation.pages.map((page, index) => {
    if (page.answer.type !== "ok") return `page ${index + 1}: ${answerText(page.answer)}`;
    const items = page.answer.items;
    const shown = items.slice(0, LIST_ITEMS_SHOWN).map(stateText);
    const more = items.length > LIST_ITEMS_SHOWN ? `, … and ${items.length - LIST_ITEMS_SHOWN} more` : "";
    return `page ${index + 1}: rv ${page.answer.resourceVersion} [${shown.join(", ")}${more}]`;
  });
  return `${request.join(" ")} → ${pages.join("; ")}`;
}

function watchText(operation: WatchOperation): string {
  const from = operation.resourceVersion === undefined ? "from now" : operation.resourceVersion === "0" ? "from any (0)" : `from rv ${operation.resourceVersion}`;
  const resumes = operation.resumes === undefined ? "" : ` (after ${operation.resumes.kind} #${operation.resumes.operation})`;
  const options = [operation.allowWatchBookmarks ? "bookmarks" : "", operation.labelSelector === undefined ? "" : `selector ${operation.labelSelector}`].filter((part) => part !== "");
  const opened = operation.opened.type === "ok" ? `${operation.events.length} events, ${operation.ending}` : answerText(operation.opened);
  return `watch ${from}${resumes}${options.length === 0 ? "" : ` [${options.join(", ")}]`} → ${opened}`;
}

function eventText(event: WatchEvent): string {
  if (event.type === "BOOKMARK") return `BOOKMARK rv ${event.bookmarkVersion ?? "?"}`;
  if (event.type === "ERROR") return `ERROR ${event.status?.code ?? "?"} ${event.status?.reason ?? ""}`.trim();
  return `${event.type} ${event.object === undefined ? "?" : stateText(event.object)}`;
}

/** `soak-k01@4714 v=writer-2-117 soak/selected=yes`. */
function stateText(state: ObjectState): string {
  const labels = Object.entries(state.labels).map(([name, value]) => `${name}=${value}`);
  return [`${state.name}@${state.resourceVersion === "" ? "(no rv)" : state.resourceVersion}`, ...(state.value === undefined ? [] : [`v=${state.value}`]), ...labels].join(" ");
}

function answerText(answer: { readonly type: "failed"; readonly code: number; readonly reason: string } | { readonly type: "uncertain"; readonly error: string }): string {
  return answer.type === "failed" ? `${answer.code}${answer.reason === "" ? "" : ` ${answer.reason}`}` : `no answer (${answer.error})`;
}

function versionText(resourceVersion: string | undefined, match: ListOperation["resourceVersionMatch"]): string {
  if (resourceVersion === undefined) return " (most recent)";
  return ` rv=${resourceVersion}${match === undefined ? "" : ` ${match}`}`;
}

/**
 * The recorder's monotonic milliseconds, as the witness explanations (sim/history/witness-text.ts)
 * and the timeline's tooltips give them, so one report names each moment one way.
 */
function time(ms: number): string {
  return ms.toFixed(1);
}
