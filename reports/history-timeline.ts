/**
 * timeline.html of a soak (issue 15): one self-contained page (inline CSS and SVG, no script, a
 * Content-Security-Policy that loads nothing) showing a recorded API history and its verdicts.
 *
 * - A header: target, namespace, seed, duration, operations by kind, the verdict of every history
 *   invariant with the obligations it checked.
 * - One panel per violation: the rule, the witness's explanation and operations, the replay
 *   command, and a zoomed timeline of the witness's time window, in full detail: every operation
 *   a bar from sent to answered (a hatched, open-ended bar when no answer came), coloured by kind,
 *   every watch event a tick on its watcher's lane, the witness's operations and events outlined.
 *   Hovering shows an operation's or event's details (SVG <title>).
 * - The whole run at full scale: one lane per client, grouped by role. A minute of a soak holds
 *   tens of thousands of operations, far too dense to draw one by one, so each lane shows how many
 *   operations started (for a watcher: events arrived) in each pixel column, and the witness
 *   windows and operations are marked on top. Small histories are drawn in full detail instead.
 *
 * Size: detail is drawn for at most DETAIL_LIMIT operations per panel (the witness's own always),
 * the rest of a crowded window as density, and at most MAX_PANELS panels, so 100,000 operations
 * make a page of a few hundred kilobytes to a few megabytes.
 */
import type { ApiHistory, HistoryClient, ListOperation, ObjectState, Operation, WatchEvent, WatchOperation, WriteOperation } from "../sim/history/api-history.ts";
import type { HistoryVerdict, HistoryWitness } from "../sim/history/history-verdict.ts";
import { writeOutcome } from "../sim/history/operation-index.ts";
import { historyInvariants } from "../spec/invariants-history.ts";
import { escapeMarkupAttr as attr, escapeMarkupText as text } from "./markup-escape.ts";
import { REPORT_LAYOUT_STYLE, selfContainedHead } from "./self-contained-head.ts";
import { witnessLines } from "./soak-witness-text.ts";

/** What the page is called and how the run is replayed. */
export interface HistoryTimelineOptions {
  readonly title: string;
  readonly replayCommand: string;
}

/** Operations (and events) drawn one by one in a panel; past it the others become density. */
export const DETAIL_LIMIT = 1_500;
/** Violations that get a zoomed panel; the others are listed with their witness in words. */
export const MAX_PANELS = 8;

// Geometry shared by every chart.
const WIDTH = 1320;
const LABEL_WIDTH = 150;
const RIGHT = 16;
const PLOT_LEFT = LABEL_WIDTH;
const PLOT_WIDTH = WIDTH - LABEL_WIDTH - RIGHT;
const TOP = 20;
const AXIS = 26;
const GROUP_HEADER = 18;

const KIND_COLORS: Readonly<Record<Operation["kind"], string>> = { write: "#d9480f", get: "#1c7ed6", list: "#2b8a3e", watch: "#7048e8" };
const EVENT_COLORS: Readonly<Record<WatchEvent["type"], string>> = { ADDED: "#2b8a3e", MODIFIED: "#1c7ed6", DELETED: "#c92a2a", BOOKMARK: "#868e96", ERROR: "#212529" };
const WITNESS = "#e8590c";
const WITNESS_STROKE = "#c2255c";
const ROLE_ORDER: readonly string[] = ["writer", "watcher", "reader"];

/** The page. */
export function renderHistoryTimeline(history: ApiHistory, verdicts: readonly HistoryVerdict[], options: HistoryTimelineOptions): string {
  const lanes = laneLayout(history);
  // Each verdict's anchor is its place among all verdicts; a violation's number its place among the violations.
  const anchors = new Map(verdicts.map((verdict, index) => [verdict, `violation-${index}`]));
  const violations = verdicts.filter((verdict) => !verdict.held);
  const witnessed = violations.flatMap((verdict, index) => (verdict.witness === undefined ? [] : [{ verdict, witness: verdict.witness, number: index + 1, anchor: anchors.get(verdict)! }]));
  const panels = witnessed.slice(0, MAX_PANELS).map((entry) => ({ ...entry, window: witnessWindow(history, entry.witness) }));
  const highlight = highlights(witnessed.map((entry) => entry.witness));
  const spans = visualEnds(history);
  const body = [
    `<header><h1>${text(options.title)}</h1>${facts(history, verdicts)}</header>`,
    `<nav><a href="#verdicts">Verdicts</a> · <a href="#violations">Violations</a> · <a href="#run">The whole run</a> · <a href="#legend">Legend</a></nav>`,
    "<main>",
    verdictSection(verdicts),
    violationSection(history, violations, anchors, panels, lanes, spans, options.replayCommand),
    runSection(history, lanes, spans, highlight, panels),
    legendSection(),
    "</main>",
  ];
  return [
    ...selfContainedHead(options.title, STYLE),
    ...body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Header, verdicts, violations

function facts(history: ApiHistory, verdicts: readonly HistoryVerdict[]): string {
  const counts = operationCounts(history);
  const violated = verdicts.filter((verdict) => !verdict.held).length;
  const roles = ROLE_ORDER.map((role) => `${history.clients.filter((client) => client.role === role).length} ${role}s`).join(", ");
  const rows: Array<[string, string]> = [
    ["target", `<code>${text(history.target)}</code>`],
    ["namespace", `<code>${text(history.namespace)}</code>`],
    ["seed", text(String(history.seed))],
    ["duration", `${seconds(history.endMs - history.startMs)} (${history.operations.length.toLocaleString("en")} operations; ${roles})`],
    ["writes", `${counts.writes.total} (${counts.writes.acknowledged} acknowledged, ${counts.writes.failed} refused, ${counts.writes.uncertain} uncertain: no answer or a 5xx)`],
    ["reads", `${counts.gets} gets, ${counts.lists} lists in ${counts.pages} pages`],
    ["watches", `${counts.watches} streams, ${counts.events.toLocaleString("en")} events`],
    ["verdict", violated === 0 ? `<span class="held">every invariant held</span>` : `<span class="violated">${violated} of ${verdicts.length} invariants violated</span>`],
  ];
  return `<dl class="facts">${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join("")}</dl>`;
}

function operationCounts(history: ApiHistory) {
  const counts = { writes: { total: 0, acknowledged: 0, failed: 0, uncertain: 0 }, gets: 0, lists: 0, pages: 0, watches: 0, events: 0 };
  for (const operation of history.operations) {
    switch (operation.kind) {
      case "write":
        counts.writes.total++;
        // As the checkers count them: a 5xx may have been applied (operation-index.ts).
        counts.writes[writeOutcome(operation)]++;
        break;
      case "get":
        counts.gets++;
        break;
      case "list":
        counts.lists++;
        counts.pages += operation.pages.length;
        break;
      case "watch":
        counts.watches++;
        counts.events += operation.events.length;
        break;
    }
  }
  return counts;
}

const RULES = new Map<string, string>(historyInvariants.map((invariant) => [invariant.id, invariant.rule]));

function verdictSection(verdicts: readonly HistoryVerdict[]): string {
  // Anchors match renderHistoryTimeline's: the verdict's place in the list.
  if (verdicts.length === 0) return `<section id="verdicts"><h2>Verdicts</h2><p>No invariant was checked.</p></section>`;
  const rows = verdicts.map((verdict, index) => {
    const state = verdict.held
      ? verdict.checked === 0
        ? `<span class="idle">held (nothing to check)</span>`
        : `<span class="held">held</span>`
      : `<a class="violated" href="#violation-${index}">VIOLATED</a>`;
    const rule = RULES.get(verdict.id);
    return `<tr${verdict.held ? "" : ` class="bad"`}><td>${state}</td><td><code>${text(verdict.id)}</code>${rule === undefined ? "" : `<br><small>${text(rule)}</small>`}</td><td class="num">${verdict.checked.toLocaleString("en")}</td></tr>`;
  });
  return [
    `<section id="verdicts"><h2>Verdicts</h2>`,
    `<table class="verdicts"><thead><tr><th scope="col">verdict</th><th scope="col">invariant</th><th scope="col">checked</th></tr></thead><tbody>${rows.join("")}</tbody></table>`,
    "</section>",
  ].join("\n");
}

interface Panel {
  readonly verdict: HistoryVerdict;
  readonly witness: HistoryWitness;
  readonly number: number;
  readonly anchor: string;
  readonly window: TimeWindow;
}

function violationSection(
  history: ApiHistory,
  violations: readonly HistoryVerdict[],
  anchors: ReadonlyMap<HistoryVerdict, string>,
  panels: readonly Panel[],
  lanes: LaneLayout,
  spans: VisualEnds,
  replayCommand: string,
): string {
  if (violations.length === 0) return `<section id="violations"><h2>Violations</h2><p>None: every invariant held.</p></section>`;
  const items = violations.map((verdict, index) => {
    const number = index + 1;
    const rule = RULES.get(verdict.id);
    const panel = panels.find((candidate) => candidate.number === number);
    const witness = verdict.witness;
    const lines = witness === undefined ? [] : witnessLines(history, witness);
    return [
      `<article class="violation" id="${attr(anchors.get(verdict) ?? "")}">`,
      `<h3>${number}. <code>${text(verdict.id)}</code> violated</h3>`,
      rule === undefined ? "" : `<p class="rule">${text(rule)}</p>`,
      witness === undefined ? "<p>No witness was given.</p>" : `<p class="explanation">${text(witness.explanation)}</p>`,
      lines.length === 0 ? "" : `<pre class="witness">${text(lines.join("\n"))}</pre>`,
      `<p>Replay: <code class="command">${text(replayCommand)}</code></p>`,
      panel === undefined
        ? witness === undefined
          ? ""
          : `<p class="note">Timeline panels are drawn for the first ${MAX_PANELS} violations only.</p>`
        : zoomPanel(history, panel, lanes, spans),
      "</article>",
    ].join("\n");
  });
  return [`<section id="violations"><h2>Violations (${violations.length})</h2>`, ...items, "</section>"].join("\n");
}

// ---------------------------------------------------------------------------------------------
// What to highlight, and where

interface Highlights {
  readonly operations: ReadonlySet<number>;
  /** Event indexes per watch operation. */
  readonly events: ReadonlyMap<number, ReadonlySet<number>>;
}

function highlights(witnesses: readonly HistoryWitness[]): Highlights {
  const operations = new Set<number>();
  const events = new Map<number, Set<number>>();
  for (const witness of witnesses) {
    for (const id of witness.operations) operations.add(id);
    for (const ref of witness.events) {
      operations.add(ref.operation);
      const indexes = events.get(ref.operation) ?? new Set<number>();
      indexes.add(ref.index);
      events.set(ref.operation, indexes);
    }
  }
  return { operations, events };
}

interface TimeWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The stretch of time a witness's panel shows: around its requests and its events. A watch
 * without witnessed events counts with its opening only, as a stream may span the whole run.
 */
function witnessWindow(history: ApiHistory, witness: HistoryWitness): TimeWindow {
  const byId = operationsById(history);
  const instants: number[] = [];
  for (const ref of witness.events) {
    const operation = byId.get(ref.operation);
    if (operation?.kind === "watch") {
      const event = operation.events[ref.index];
      if (event !== undefined) instants.push(event.atMs);
    }
  }
  for (const id of witness.operations) {
    const operation = byId.get(id);
    if (operation === undefined) continue;
    if (operation.kind === "watch") {
      if (!witness.events.some((ref) => ref.operation === id)) instants.push(operation.startMs);
      continue;
    }
    instants.push(operation.startMs);
    if (operation.endMs !== undefined) instants.push(operation.endMs);
  }
  if (instants.length === 0) return { fromMs: history.startMs, toMs: history.endMs };
  const from = Math.min(...instants);
  const to = Math.max(...instants);
  const padding = Math.max((to - from) * 0.15, 4);
  return { fromMs: Math.max(history.startMs, from - padding), toMs: Math.min(Math.max(history.endMs, to), to + padding) };
}

const byIdCache = new WeakMap<ApiHistory, Map<number, Operation>>();
function operationsById(history: ApiHistory): Map<number, Operation> {
  let found = byIdCache.get(history);
  if (found === undefined) {
    found = new Map(history.operations.map((operation) => [operation.id, operation]));
    byIdCache.set(history, found);
  }
  return found;
}

/** Where a bar ends: its answer, or for an operation without one, the client's next request (or the run's end). */
type VisualEnds = ReadonlyMap<number, number>;

function visualEnds(history: ApiHistory): VisualEnds {
  const ends = new Map<number, number>();
  const next = new Map<string, number>();
  for (let index = history.operations.length - 1; index >= 0; index--) {
    const operation = history.operations[index]!;
    const following = next.get(operation.client) ?? history.endMs;
    ends.set(operation.id, operation.endMs ?? Math.max(operation.startMs, operation.kind === "watch" ? history.endMs : following));
    next.set(operation.client, operation.startMs);
  }
  return ends;
}

// ---------------------------------------------------------------------------------------------
// Lanes

interface Lane {
  readonly client: string;
  readonly role: string;
  readonly index: number;
}

interface LaneLayout {
  readonly lanes: readonly Lane[];
  readonly byClient: ReadonlyMap<string, Lane>;
  /** Role groups in order, each with its lanes. */
  readonly groups: ReadonlyArray<{ readonly role: string; readonly lanes: readonly Lane[] }>;
}

/** One lane per client, grouped by role (writers, watchers, readers, then any other). */
function laneLayout(history: ApiHistory): LaneLayout {
  const clients: HistoryClient[] = [...history.clients];
  const known = new Set(clients.map((client) => client.id));
  // An operation of a client the history does not list still gets a lane.
  for (const operation of history.operations) {
    if (known.has(operation.client)) continue;
    known.add(operation.client);
    clients.push({ id: operation.client, role: "other" as HistoryClient["role"] });
  }
  const roles = [...ROLE_ORDER, ...new Set(clients.map((client) => client.role).filter((role) => !ROLE_ORDER.includes(role)))];
  const groups: Array<{ role: string; lanes: Lane[] }> = [];
  const lanes: Lane[] = [];
  for (const role of roles) {
    const members = clients.filter((client) => client.role === role);
    if (members.length === 0) continue;
    const group = { role, lanes: [] as Lane[] };
    for (const client of members) {
      const lane = { client: client.id, role, index: lanes.length };
      lanes.push(lane);
      group.lanes.push(lane);
    }
    groups.push(group);
  }
  return { lanes, byClient: new Map(lanes.map((lane) => [lane.client, lane])), groups };
}

/** Vertical positions of the lanes of one chart. */
interface LaneGeometry {
  readonly laneHeight: number;
  readonly barHeight: number;
  readonly height: number;
  /** Top of each lane by client. */
  readonly top: ReadonlyMap<string, number>;
  readonly svgLabels: string;
}

function laneGeometry(layout: LaneLayout, laneHeight: number, barHeight: number, countsByClient: ReadonlyMap<string, number>): LaneGeometry {
  const top = new Map<string, number>();
  const labels: string[] = [];
  let y = TOP;
  for (const group of layout.groups) {
    labels.push(`<text class="group" x="4" y="${y + 13}">${text(`${group.role}s`)}</text>`);
    labels.push(`<line class="group-rule" x1="4" y1="${y + GROUP_HEADER - 2}" x2="${WIDTH - RIGHT}" y2="${y + GROUP_HEADER - 2}"/>`);
    y += GROUP_HEADER;
    for (const [position, lane] of group.lanes.entries()) {
      top.set(lane.client, y);
      if (position % 2 === 1) labels.push(`<rect class="stripe" x="${PLOT_LEFT}" y="${y}" width="${PLOT_WIDTH}" height="${laneHeight}"/>`);
      const count = countsByClient.get(lane.client) ?? 0;
      labels.push(
        `<text class="lane" x="12" y="${r(y + laneHeight / 2 + 4)}">${text(clip(lane.client, 17))}<tspan class="count"> ${count.toLocaleString("en")}</tspan><title>${text(`${lane.client} (${lane.role}): ${count} operations`)}</title></text>`,
      );
      y += laneHeight;
    }
    y += 4;
  }
  return { laneHeight, barHeight, height: y + AXIS, top, svgLabels: labels.join("") };
}

// ---------------------------------------------------------------------------------------------
// Charts

/** Maps times of a window to x coordinates of the plot. */
class TimeScale {
  constructor(
    readonly window: TimeWindow,
    readonly originMs: number,
  ) {}

  x(ms: number): number {
    const span = Math.max(this.window.toMs - this.window.fromMs, 1e-6);
    const clamped = Math.min(Math.max(ms, this.window.fromMs), this.window.toMs);
    return r(PLOT_LEFT + ((clamped - this.window.fromMs) / span) * PLOT_WIDTH);
  }

  axis(height: number): string {
    const span = this.window.toMs - this.window.fromMs;
    const step = niceStepMs(span / 9);
    const decimals = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
    const bottom = height - AXIS;
    const parts: string[] = [];
    const first = Math.ceil((this.window.fromMs - this.originMs) / step) * step + this.originMs;
    for (let t = first; t <= this.window.toMs + 1e-9; t += step) {
      const x = this.x(t);
      parts.push(`<line class="grid" x1="${x}" y1="${TOP}" x2="${x}" y2="${bottom}"/><text class="tick" x="${x}" y="${bottom + 14}">${((t - this.originMs) / 1000).toFixed(decimals)} s</text>`);
    }
    parts.push(`<line class="axis" x1="${PLOT_LEFT}" y1="${bottom}" x2="${PLOT_LEFT + PLOT_WIDTH}" y2="${bottom}"/>`);
    return parts.join("");
  }
}

function svgOpen(height: number, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${attr(label)}">`;
}

/** Hatch patterns for operations without an answer, one per kind, with ids unique to the chart. */
function hatchDefs(prefix: string): string {
  const patterns = Object.entries(KIND_COLORS).map(
    ([kind, color]) =>
      `<pattern id="${prefix}-hatch-${kind}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="${color}" fill-opacity=".15"/><rect width="2.5" height="6" fill="${color}"/></pattern>`,
  );
  return `<defs>${patterns.join("")}</defs>`;
}

/** The zoomed panel of one violation: its window in full detail. */
function zoomPanel(history: ApiHistory, panel: Panel, layout: LaneLayout, spans: VisualEnds): string {
  const { window } = panel;
  const inWindow = history.operations.filter((operation) => operation.startMs <= window.toMs && (spans.get(operation.id) ?? operation.startMs) >= window.fromMs);
  const own = new Set([...panel.witness.operations, ...panel.witness.events.map((ref) => ref.operation)]);
  const counts = countByClient(inWindow);
  const geometry = laneGeometry(layout, 24, 14, counts);
  const scale = new TimeScale(window, history.startMs);
  const prefix = `p${panel.number}`;
  // Detail for the witness's own operations always; for the others while they fit.
  const cost = (operation: Operation) => weight(operation, window);
  const ranked = [...inWindow].sort((a, b) => Number(own.has(b.id)) - Number(own.has(a.id)) || cost(a) - cost(b));
  const detailed = new Set<number>();
  let budget = DETAIL_LIMIT;
  for (const operation of ranked) {
    const cost = weight(operation, window);
    if (!own.has(operation.id) && cost > budget) continue;
    detailed.add(operation.id);
    budget -= cost;
  }
  const crowded = inWindow.filter((operation) => !detailed.has(operation.id));
  const panelHighlight: Highlights = { operations: own, events: eventsOf(panel.witness) };
  const bars = inWindow.filter((operation) => detailed.has(operation.id)).map((operation) => detailBar(operation, history, scale, geometry, spans, panelHighlight, prefix));
  const density = crowded.length === 0 ? "" : densityLayer(crowded, scale, geometry, layout, spans);
  const caption = `${((window.fromMs - history.startMs) / 1000).toFixed(3)}–${((window.toMs - history.startMs) / 1000).toFixed(3)} s after the start (${(window.toMs - window.fromMs).toFixed(1)} ms; monotonic ${window.fromMs.toFixed(1)}–${window.toMs.toFixed(1)} ms): ${inWindow.length} operations${crowded.length === 0 ? "" : `, ${crowded.length} of them as density`}.`;
  return [
    `<figure class="zoom">`,
    svgOpen(geometry.height, `witness window of violation ${panel.number}`),
    hatchDefs(prefix),
    geometry.svgLabels,
    scale.axis(geometry.height),
    density,
    bars.join(""),
    "</svg>",
    `<figcaption>${text(caption)} Outlined in red: the witness. Hover over a bar or tick for details.</figcaption>`,
    "</figure>",
  ].join("\n");
}

function eventsOf(witness: HistoryWitness): Map<number, Set<number>> {
  const events = new Map<number, Set<number>>();
  for (const ref of witness.events) events.set(ref.operation, new Set([...(events.get(ref.operation) ?? []), ref.index]));
  return events;
}

// How much drawing an operation costs: a bar, and a tick per event of a watch (in `window`, if given).
function weight(operation: Operation, window?: TimeWindow): number {
  if (operation.kind !== "watch") return 1;
  if (window === undefined) return 1 + operation.events.length;
  let ticks = 0;
  for (const event of operation.events) if (event.atMs >= window.fromMs && event.atMs <= window.toMs) ticks++;
  return 1 + ticks;
}

function countByClient(operations: readonly Operation[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const operation of operations) counts.set(operation.client, (counts.get(operation.client) ?? 0) + 1);
  return counts;
}

/** One operation drawn in detail: a bar (watches a thin line with event ticks), with its tooltip. */
function detailBar(operation: Operation, history: ApiHistory, scale: TimeScale, geometry: LaneGeometry, spans: VisualEnds, highlight: Highlights, prefix: string): string {
  const laneTop = geometry.top.get(operation.client);
  if (laneTop === undefined) return "";
  const end = spans.get(operation.id) ?? operation.startMs;
  const x1 = scale.x(operation.startMs);
  const x2 = Math.max(scale.x(end), x1 + 2);
  const y = r(laneTop + (geometry.laneHeight - geometry.barHeight) / 2);
  const witness = highlight.operations.has(operation.id);
  const uncertain = isUncertain(operation);
  const failed = isFailed(operation);
  const color = KIND_COLORS[operation.kind];
  const classes = ["op", operation.kind, ...(witness ? ["witness"] : []), ...(uncertain ? ["uncertain"] : []), ...(failed ? ["failed"] : [])].join(" ");
  const title = `<title>${text(operationTitle(operation, history))}</title>`;
  const clippedLeft = operation.startMs < scale.window.fromMs;
  const clippedRight = end > scale.window.toMs;
  const parts: string[] = [];
  if (operation.kind === "watch") {
    // A stream is a line; a witness stream a thicker one in the witness colour (a ring round a
    // stream that spans the window would box the whole lane).
    const thickness = witness ? 6 : 4;
    const lineY = r(y + geometry.barHeight / 2 - thickness / 2);
    const fill = uncertain ? `url(#${prefix}-hatch-watch)` : witness ? WITNESS_STROKE : color;
    parts.push(`<rect class="${classes}" data-op="${operation.id}" x="${x1}" y="${lineY}" width="${r(x2 - x1)}" height="${thickness}" fill="${fill}">${title}</rect>`);
    const witnessed = highlight.events.get(operation.id);
    for (const [index, event] of operation.events.entries()) {
      if (event.atMs < scale.window.fromMs || event.atMs > scale.window.toMs) continue;
      const marked = witnessed?.has(index) === true;
      const x = scale.x(event.atMs);
      const tick = marked
        ? `<rect class="event witness" data-op="${operation.id}" data-event="${index}" x="${r(x - 1.5)}" y="${r(y - 3)}" width="3" height="${geometry.barHeight + 6}" fill="${WITNESS}">`
        : `<rect class="event" x="${r(x - 1)}" y="${y}" width="2" height="${geometry.barHeight}" fill="${EVENT_COLORS[event.type]}">`;
      parts.push(`${tick}<title>${text(eventTitle(operation, index, event, history))}</title></rect>`);
      if (marked) parts.push(`<path class="marker" d="M${r(x - 4)},${r(y - 9)}h8l-4,5z"/>`);
    }
  } else {
    const fill = uncertain ? `url(#${prefix}-hatch-${operation.kind})` : failed ? "#fff" : color;
    parts.push(`<rect class="${classes}" data-op="${operation.id}" x="${x1}" y="${y}" width="${r(x2 - x1)}" height="${geometry.barHeight}" fill="${fill}" stroke="${failed ? color : "none"}">${title}</rect>`);
    if (operation.kind === "list") {
      for (const page of operation.pages.slice(1)) {
        const x = scale.x(page.startMs);
        if (x > x1 + 1 && x < x2 - 1) parts.push(`<line class="page" x1="${x}" y1="${y}" x2="${x}" y2="${y + geometry.barHeight}"/>`);
      }
    }
    const label = barLabel(operation);
    if (label.length * 6 + 6 < x2 - x1) parts.push(`<text class="in-bar${failed ? " dark" : ""}" x="${r(x1 + 3)}" y="${r(y + geometry.barHeight - 3.5)}">${text(label)}</text>`);
  }
  if (witness && operation.kind !== "watch") parts.push(`<rect class="witness-ring" x="${r(x1 - 2)}" y="${r(y - 2)}" width="${r(x2 - x1 + 4)}" height="${geometry.barHeight + 4}"/>`);
  if (clippedLeft) parts.push(`<text class="clip" x="${PLOT_LEFT - 2}" y="${r(y + geometry.barHeight - 3)}">‹</text>`);
  if (clippedRight && !uncertain) parts.push(`<text class="clip" x="${PLOT_LEFT + PLOT_WIDTH + 2}" y="${r(y + geometry.barHeight - 3)}">›</text>`);
  return parts.join("");
}

function barLabel(operation: Operation): string {
  switch (operation.kind) {
    case "write":
      return `${operation.verb} ${operation.name}`;
    case "get":
      return `get ${operation.name}`;
    case "list":
      return operation.pages.length > 1 ? `list (${operation.pages.length} pages)` : "list";
    case "watch":
      return "watch";
  }
}

/**
 * Operations as density: per lane and pixel column, how many operations started there (for a
 * watch, how many events arrived), as a bar whose height grows with the square root of the count.
 * Columns with the same height and colour merge into one rectangle.
 */
function densityLayer(operations: readonly Operation[], scale: TimeScale, geometry: LaneGeometry, layout: LaneLayout, spans: VisualEnds): string {
  const columns = Math.round(PLOT_WIDTH);
  const perLane = new Map<string, { counts: Float64Array; kinds: Array<Record<string, number> | undefined> }>();
  const laneOf = (client: string) => {
    let found = perLane.get(client);
    if (found === undefined) {
      found = { counts: new Float64Array(columns), kinds: new Array(columns) };
      perLane.set(client, found);
    }
    return found;
  };
  const columnOf = (ms: number) => Math.min(columns - 1, Math.max(0, Math.floor(scale.x(ms) - PLOT_LEFT)));
  const parts: string[] = [];
  for (const operation of operations) {
    const lane = laneOf(operation.client);
    const add = (ms: number, kind: string) => {
      if (ms < scale.window.fromMs || ms > scale.window.toMs) return;
      const column = columnOf(ms);
      lane.counts[column]!++;
      const kinds = (lane.kinds[column] ??= {});
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    };
    if (operation.kind === "watch") {
      // The stream itself as a thin line (there are few), its events as density.
      const top = geometry.top.get(operation.client);
      if (top !== undefined) {
        const x1 = scale.x(operation.startMs);
        const x2 = Math.max(scale.x(spans.get(operation.id) ?? operation.startMs), x1 + 1);
        parts.push(`<rect class="stream" x="${x1}" y="${r(top + geometry.laneHeight - 3)}" width="${r(x2 - x1)}" height="2"><title>${text(`#${operation.id} ${operation.client}: ${watchSummary(operation)}`)}</title></rect>`);
      }
      for (const event of operation.events) add(event.atMs, "watch");
    } else {
      add(operation.startMs, isUncertain(operation) ? "uncertain" : operation.kind);
    }
  }
  for (const lane of layout.lanes) {
    const data = perLane.get(lane.client);
    const top = geometry.top.get(lane.client);
    if (data === undefined || top === undefined) continue;
    let max = 0;
    for (const count of data.counts) max = Math.max(max, count);
    if (max === 0) continue;
    const room = geometry.laneHeight - 4;
    let runStart = -1;
    let runHeight = 0;
    let runColor = "";
    let runCount = 0;
    const flush = (end: number) => {
      if (runStart < 0 || runHeight === 0) return;
      const y = r(top + geometry.laneHeight - 3 - runHeight);
      parts.push(`<rect x="${PLOT_LEFT + runStart}" y="${y}" width="${end - runStart}" height="${runHeight}" fill="${runColor}"><title>${runCount} in ${r(((end - runStart) / columns) * (scale.window.toMs - scale.window.fromMs))} ms</title></rect>`);
    };
    for (let column = 0; column <= columns; column++) {
      const count = column < columns ? data.counts[column]! : 0;
      const height = count === 0 ? 0 : Math.max(1, Math.round(Math.sqrt(count / max) * room));
      const color = count === 0 ? "" : dominantColor(data.kinds[column]!);
      if (height !== runHeight || color !== runColor) {
        flush(column);
        runStart = column;
        runHeight = height;
        runColor = color;
        runCount = 0;
      }
      runCount += count;
    }
  }
  return `<g class="density">${parts.join("")}</g>`;
}

function dominantColor(kinds: Record<string, number>): string {
  let best = "";
  let most = -1;
  for (const [kind, count] of Object.entries(kinds)) {
    if (count > most) {
      best = kind;
      most = count;
    }
  }
  return best === "uncertain" ? "#495057" : KIND_COLORS[best as Operation["kind"]] ?? "#868e96";
}

/** The whole run: density (or detail, when small), with the witness windows and operations marked. */
function runSection(history: ApiHistory, layout: LaneLayout, spans: VisualEnds, highlight: Highlights, panels: readonly Panel[]): string {
  const window = { fromMs: history.startMs, toMs: Math.max(history.endMs, history.startMs + 1) };
  const scale = new TimeScale(window, history.startMs);
  const counts = countByClient(history.operations);
  const small = history.operations.reduce((sum, operation) => sum + weight(operation), 0) <= DETAIL_LIMIT;
  const geometry = laneGeometry(layout, small ? 24 : 18, small ? 14 : 12, counts);
  const bottom = geometry.height - AXIS;
  const bands = panels.map((panel) => {
    const x1 = scale.x(panel.window.fromMs);
    const width = Math.max(5, r(scale.x(panel.window.toMs) - x1));
    return `<a href="#${attr(panel.anchor)}"><rect class="band" x="${x1}" y="${TOP - 14}" width="${width}" height="${bottom - TOP + 14}"><title>${text(`violation ${panel.number}: ${panel.verdict.id}`)}</title></rect><text class="band-label" x="${r(x1 + width / 2)}" y="${TOP - 4}">${panel.number}</text></a>`;
  });
  const content = small
    ? history.operations.map((operation) => detailBar(operation, history, scale, geometry, spans, highlight, "run")).join("")
    : [densityLayer(history.operations, scale, geometry, layout, spans), witnessMarks(history, scale, geometry, spans, highlight)].join("");
  const note = small
    ? "Every operation in detail."
    : "Each lane shows how many operations started (for a watcher: events arrived) per pixel column; bar height grows with the square root of the count. The witness windows are shaded and numbered, the witness operations outlined; the panels above show them in detail.";
  return [
    `<section id="run"><h2>The whole run</h2>`,
    `<p>${text(`${seconds(history.endMs - history.startMs)}, ${history.operations.length.toLocaleString("en")} operations of ${layout.lanes.length} clients. ${note}`)}</p>`,
    `<figure class="overview">`,
    svgOpen(geometry.height, "the whole run, one lane per client"),
    hatchDefs("run"),
    geometry.svgLabels,
    scale.axis(geometry.height),
    bands.join(""),
    content,
    "</svg>",
    "</figure>",
    "</section>",
  ].join("\n");
}

/** The witness operations at full scale: an outline at least 3 px wide on their lane. */
function witnessMarks(history: ApiHistory, scale: TimeScale, geometry: LaneGeometry, spans: VisualEnds, highlight: Highlights): string {
  const byId = operationsById(history);
  const marks: string[] = [];
  for (const id of highlight.operations) {
    const operation = byId.get(id);
    const top = operation === undefined ? undefined : geometry.top.get(operation.client);
    if (operation === undefined || top === undefined) continue;
    const events = highlight.events.get(id);
    if (operation.kind === "watch" && events !== undefined) {
      for (const index of events) {
        const event = operation.events[index];
        if (event === undefined) continue;
        const x = scale.x(event.atMs);
        marks.push(`<rect class="witness-mark" data-op="${id}" data-event="${index}" x="${r(x - 1.5)}" y="${top}" width="3" height="${geometry.laneHeight}"><title>${text(eventTitle(operation, index, event, history))}</title></rect>`);
        marks.push(`<path class="marker" d="M${r(x - 4)},${r(top - 5)}h8l-4,5z"/>`);
      }
      continue;
    }
    const x1 = scale.x(operation.startMs);
    const x2 = Math.max(scale.x(spans.get(id) ?? operation.startMs), x1 + 3);
    // A white halo under the outline, so that it shows on a lane solid with density.
    const ring = `x="${r(x1 - 1.5)}" y="${r(top + 1)}" width="${r(x2 - x1 + 3)}" height="${geometry.laneHeight - 2}"`;
    marks.push(`<rect class="witness-halo" ${ring}/><rect class="witness-ring" data-op="${id}" ${ring}><title>${text(operationTitle(operation, history))}</title></rect>`);
    marks.push(`<path class="marker" d="M${r((x1 + x2) / 2 - 4)},${r(top - 5)}h8l-4,5z"/>`);
  }
  return `<g class="witness-marks">${marks.join("")}</g>`;
}

function legendSection(): string {
  const swatch = (color: string, label: string, extra = "") => `<span class="swatch" style="background:${color}${extra}"></span>${text(label)}`;
  const kinds = Object.entries(KIND_COLORS).map(([kind, color]) => swatch(color, kind));
  const events = Object.entries(EVENT_COLORS).map(([type, color]) => swatch(color, type));
  return [
    `<section id="legend"><h2>Legend</h2>`,
    `<p>Operations (a bar from sent to answered): ${kinds.join(" ")} · <span class="swatch outlined"></span>answered with an error · <span class="swatch hatched"></span>no answer (uncertain: drawn until the client's next request) · list bars mark each further page with a white line.</p>`,
    `<p>Watch streams: a thin line while open, a tick per event: ${events.join(" ")}.</p>`,
    `<p>Witness: <span class="swatch witness"></span>operations outlined in red, events as tall orange ticks under a marker. The axes count seconds since the first request; tooltips, witness explanations and witness lines give the recorder's monotonic milliseconds (each panel's caption gives both).</p>`,
    "</section>",
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Tooltips

function operationTitle(operation: Operation, history: ApiHistory): string {
  const when = `sent ${at(operation.startMs, history)}, ${operation.endMs === undefined ? "no answer" : `answered ${at(operation.endMs, history)} (${(operation.endMs - operation.startMs).toFixed(1)} ms)`}`;
  return `#${operation.id} ${operation.client}: ${describe(operation)}\n${when}`;
}

function describe(operation: Operation): string {
  switch (operation.kind) {
    case "write":
      return writeSummary(operation);
    case "get": {
      const version = operation.resourceVersion === undefined ? "" : ` rv=${operation.resourceVersion}`;
      return `get ${operation.name}${version} → ${operation.answer.type === "ok" ? `200 ${state(operation.answer.object)}` : answerSummary(operation.answer)}`;
    }
    case "list":
      return listSummary(operation);
    case "watch":
      return watchSummary(operation);
  }
}

function writeSummary(operation: WriteOperation): string {
  const sets = [
    ...(operation.value === undefined ? [] : [`v=${operation.value}`]),
    ...Object.entries(operation.labels ?? {}).map(([name, value]) => (value === null ? `-${name}` : `${name}=${value}`)),
  ];
  const condition = operation.precondition === undefined ? "" : ` if rv=${operation.precondition}`;
  const answer = operation.answer.type === "ok" ? `${operation.answer.code} ${state(operation.answer.object)}` : answerSummary(operation.answer);
  return `${operation.verb} ${operation.name}${condition}${sets.length === 0 ? "" : ` (${sets.join(", ")})`} → ${answer}`;
}

function listSummary(operation: ListOperation): string {
  const request = [
    operation.labelSelector === undefined ? "" : `selector ${operation.labelSelector}`,
    operation.resourceVersion === undefined ? "most recent" : `rv=${operation.resourceVersion}${operation.resourceVersionMatch === undefined ? "" : ` ${operation.resourceVersionMatch}`}`,
    operation.limit === undefined ? "" : `limit ${operation.limit}`,
  ].filter((part) => part !== "");
  const pages = operation.pages.map((page, index) => {
    if (page.answer.type !== "ok") return `page ${index + 1}: ${answerSummary(page.answer)}`;
    const items = page.answer.items;
    const shown = items.slice(0, 8).map(state).join(", ");
    return `page ${index + 1}: rv ${page.answer.resourceVersion}, ${items.length} items [${shown}${items.length > 8 ? ", …" : ""}]`;
  });
  return `list ${request.join(", ")} → ${pages.join("; ")}`;
}

function watchSummary(operation: WatchOperation): string {
  const from = operation.resourceVersion === undefined ? "from now" : operation.resourceVersion === "0" ? "from any (0)" : `from rv ${operation.resourceVersion}`;
  const resumes = operation.resumes === undefined ? "" : ` (after ${operation.resumes.kind} #${operation.resumes.operation})`;
  const selector = operation.labelSelector === undefined ? "" : ` selector ${operation.labelSelector}`;
  const opened = operation.opened.type === "ok" ? `${operation.events.length} events, ${operation.ending}` : answerSummary(operation.opened);
  return `watch ${from}${resumes}${selector} → ${opened}`;
}

function eventTitle(operation: WatchOperation, index: number, event: WatchEvent, history: ApiHistory): string {
  const what =
    event.type === "BOOKMARK"
      ? `BOOKMARK rv ${event.bookmarkVersion ?? "?"}`
      : event.type === "ERROR"
        ? `ERROR ${event.status?.code ?? "?"} ${event.status?.reason ?? ""}`.trim()
        : `${event.type} ${event.object === undefined ? "?" : state(event.object)}`;
  return `#${operation.id} ${operation.client} event ${index}: ${what}\nat ${at(event.atMs, history)}`;
}

function state(object: ObjectState): string {
  const labels = Object.entries(object.labels).map(([name, value]) => `${name}=${value}`);
  return [`${object.name}@${object.resourceVersion}`, ...(object.value === undefined ? [] : [`v=${object.value}`]), ...labels].join(" ");
}

function answerSummary(answer: { readonly type: "failed"; readonly code: number; readonly reason: string } | { readonly type: "uncertain"; readonly error: string }): string {
  return answer.type === "failed" ? `${answer.code} ${answer.reason}`.trim() : `no answer (${answer.error})`;
}

function isUncertain(operation: Operation): boolean {
  switch (operation.kind) {
    case "write":
    case "get":
      return operation.answer.type === "uncertain";
    case "list":
      return operation.pages.at(-1)?.answer.type === "uncertain";
    case "watch":
      return operation.opened.type === "uncertain";
  }
}

function isFailed(operation: Operation): boolean {
  switch (operation.kind) {
    case "write":
    case "get":
      return operation.answer.type === "failed";
    case "list":
      return operation.pages.at(-1)?.answer.type === "failed";
    case "watch":
      return operation.opened.type === "failed";
  }
}

// ---------------------------------------------------------------------------------------------
// Numbers

const r = (value: number) => Math.round(value * 10) / 10;

function at(ms: number, history: ApiHistory): string {
  return `${((ms - history.startMs) / 1000).toFixed(3)} s (${ms.toFixed(1)} ms)`;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

function clip(value: string, length: number): string {
  return value.length <= length ? value : `${value.slice(0, length - 1)}…`;
}

const STEPS_MS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000];

function niceStepMs(raw: number): number {
  return STEPS_MS.find((step) => step >= raw) ?? Math.ceil(raw / 600_000) * 600_000;
}

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--bad:#cf222e;--good:#1a7f37;--code:#f6f8fa;--badbg:#ffebe9}
${REPORT_LAYOUT_STYLE}
.held{color:var(--good);font-weight:600}.violated{color:var(--bad);font-weight:700}.idle{color:var(--muted)}
article.violation{border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:6px;padding:.5rem .75rem;margin:1rem 0}
.rule{color:var(--muted);margin:.25rem 0}.explanation{font-weight:600}.note{color:var(--muted)}
figure{margin:.5rem 0;overflow-x:auto}figcaption{color:var(--muted);font-size:12.5px}
svg{display:block;background:#fff;max-width:100%;height:auto}
svg text{font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
svg .group{font-size:12px;font-weight:700;fill:#343a40}svg .group-rule{stroke:#ced4da}
svg .lane{font-size:11.5px;fill:#212529}svg .count{fill:#868e96;font-size:10px}
svg .stripe{fill:#f8f9fa}
svg .grid{stroke:#e9ecef}svg .axis{stroke:#868e96}svg .tick{font-size:10px;fill:#495057;text-anchor:middle}
svg .op{opacity:.8}svg .op.witness,svg .event.witness{opacity:1}
svg .in-bar{font-size:10px;fill:#fff;pointer-events:none}svg .in-bar.dark{fill:#343a40}
svg .page{stroke:#fff;stroke-width:1.5}
svg .witness-ring{fill:none;stroke:${WITNESS_STROKE};stroke-width:2.5}
svg .witness-mark{fill:${WITNESS};stroke:#fff;stroke-width:1}svg .witness-halo{fill:none;stroke:#fff;stroke-width:5}
svg .marker{fill:${WITNESS_STROKE}}
svg .clip{font-size:14px;fill:#868e96}
svg .stream{fill:#b197fc}
svg .band{fill:${WITNESS};fill-opacity:.12;stroke:${WITNESS};stroke-opacity:.5}
svg .band-label{font-size:11px;font-weight:700;fill:${WITNESS_STROKE};text-anchor:middle}
.swatch{display:inline-block;width:1.6em;height:.9em;margin:0 .3em 0 .8em;vertical-align:middle;border-radius:2px}
.swatch.outlined{border:1.5px solid ${KIND_COLORS.write};background:#fff}
.swatch.hatched{background:repeating-linear-gradient(45deg,${KIND_COLORS.write} 0 3px,#fbe3d6 3px 6px)}
.swatch.witness{border:2.5px solid ${WITNESS_STROKE};background:#fff}
`;
