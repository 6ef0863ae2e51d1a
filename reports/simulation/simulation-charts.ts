/**
 * The report's charts (issue #6): leadership intervals per candidate with the faults; ready
 * nodes and state per zone; cumulative node evictions per zone against the rate limit's envelope,
 * and cumulative pod evictions.
 */
import { band, laneLabel, polyline, stepLine, svg, valueAxis, type ChartFrame } from "./svg-chart.ts";
import { escapeMarkupText } from "../markup-escape.ts";
import { overlapIntervals, type FaultMarker, type LeadershipLane, type Point, type ZoneSeries } from "./simulation-series.ts";

const WIDTH = 960;
const LANE = 22;
const STATE_COLORS = { Initial: "#ddd", Normal: "#cdeccd", PartialDisruption: "#ffe0a3", FullDisruption: "#f6b3b3" } as const;
const STARTUP_COLOR = "#d9d9d9";
const OVERLAP_COLOR = "#e15759";
const LINE_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

/** Leadership intervals, one lane per candidate, faults in a lane below. */
export function leadershipChart(lanes: readonly LeadershipLane[], faults: readonly FaultMarker[], candidates: readonly string[], durationS: number): string {
  const names = [...new Set([...candidates, ...lanes.map((lane) => lane.candidate)])].sort();
  const height = 30 + (names.length + Math.max(1, faults.length)) * LANE + 20;
  const frame: ChartFrame = { width: WIDTH, height, left: 120, top: 10, bottom: 24, right: 10, durationS, maxValue: 1 };
  const body: string[] = [];
  const overlaps = overlapIntervals(lanes);
  for (const overlap of overlaps) {
    body.push(band(frame, overlap.from, overlap.to, frame.top, names.length * LANE, OVERLAP_COLOR, `${overlap.leaders} leaders at once ${overlap.from.toFixed(3)}s – ${overlap.to.toFixed(3)}s`, 'class="overlap" fill-opacity="0.25"'));
  }
  names.forEach((name, index) => {
    const y = frame.top + index * LANE;
    body.push(laneLabel(y + 15, name));
    for (const interval of lanes.find((lane) => lane.candidate === name)?.intervals ?? []) {
      body.push(band(frame, interval.from, interval.to, y + 3, LANE - 6, "#4e79a7", `${interval.identity} leads ${interval.from.toFixed(3)}s – ${interval.to.toFixed(3)}s (${interval.ended})`));
    }
  });
  faults.forEach((fault, index) => {
    const y = frame.top + (names.length + index) * LANE;
    body.push(laneLabel(y + 15, index === 0 ? "faults" : ""));
    body.push(band(frame, fault.from, fault.to, y + 5, LANE - 10, "#e15759", `${fault.label}: ${fault.from.toFixed(3)}s – ${fault.to.toFixed(3)}s`));
  });
  const legendItems: LegendItem[] = [{ kind: "box", color: "#4e79a7", label: "leads" }, { kind: "box", color: "#e15759", label: "fault" }];
  if (overlaps.length > 0) legendItems.push({ kind: "box", color: OVERLAP_COLOR, opacity: 0.25, label: `two or more leaders at once (${overlaps.length}×)` });
  return legend(legendItems) + svg(frame, "Leadership intervals per candidate (true time), and faults", body.join(""));
}

/** Ready nodes per zone (lines) over zone-state bands. */
export function zoneHealthChart(zones: readonly ZoneSeries[], durationS: number): string {
  const maxNodes = Math.max(1, ...zones.map((zone) => zone.nodes));
  const bands = zones.length * 12;
  const frame: ChartFrame = { width: WIDTH, height: 240 + bands, left: 60, top: 16, bottom: 24 + bands, right: 10, durationS, maxValue: maxNodes };
  const body: string[] = [valueAxis(frame, "Ready nodes")];
  zones.forEach((zone, index) => {
    body.push(stepLine(frame, zone.ready, LINE_COLORS[index % LINE_COLORS.length]!));
    const y = frame.height - frame.bottom + 18 + index * 12;
    body.push(`<text x="4" y="${y + 8}" font-size="10" font-family="sans-serif" fill="${LINE_COLORS[index % LINE_COLORS.length]}">${zone.zone}</text>`);
    for (const state of zone.states) {
      const color = state.startup === true ? STARTUP_COLOR : STATE_COLORS[state.state];
      const label = state.startup === true ? `start-up (${state.state}: no node of the zone Ready yet)` : state.state;
      body.push(band(frame, state.from, state.to, y, 10, color, `${zone.zone}: ${label} ${state.from.toFixed(1)}s – ${state.to.toFixed(1)}s`, state.startup === true ? 'class="startup"' : ""));
    }
  });
  const items: LegendItem[] = zones.map((zone, index) => ({ kind: "line", color: LINE_COLORS[index % LINE_COLORS.length]!, label: `${zone.zone} Ready nodes` }));
  items.push(
    { kind: "box", color: STATE_COLORS.Normal, label: "Normal" },
    { kind: "box", color: STATE_COLORS.PartialDisruption, label: "PartialDisruption" },
    { kind: "box", color: STATE_COLORS.FullDisruption, label: "FullDisruption" },
  );
  if (zones.some((zone) => zone.states.some((state) => state.startup === true))) items.push({ kind: "box", color: STARTUP_COLOR, label: "start-up (no node of the zone Ready yet)" });
  return legend(items) + svg(frame, "Ready nodes per zone and zone states (green Normal, amber PartialDisruption, red FullDisruption, grey start-up)", body.join(""));
}

/** Cumulative node evictions per zone (solid) against each zone's rate-limit envelope (dashed). */
export function evictionChart(zones: readonly ZoneSeries[], pods: readonly Point[], durationS: number): string {
  const maxEvictions = Math.max(1, ...zones.flatMap((zone) => [zone.evictions.at(-1)?.value ?? 0, ...zone.envelope.map((point) => point.value)]));
  const frame: ChartFrame = { width: WIDTH, height: 240, left: 60, top: 16, bottom: 24, right: 10, durationS, maxValue: Math.ceil(maxEvictions * 1.2) };
  const body: string[] = [valueAxis(frame, "Nodes evicted (tainted), cumulative")];
  zones.forEach((zone, index) => {
    const color = LINE_COLORS[index % LINE_COLORS.length]!;
    body.push(polyline(frame, zone.envelope, color, true));
    body.push(stepLine(frame, zone.evictions, color));
  });
  const podFrame: ChartFrame = { ...frame, maxValue: Math.max(1, pods.at(-1)?.value ?? 0) };
  const items: LegendItem[] = zones.flatMap((zone, index): LegendItem[] => {
    const color = LINE_COLORS[index % LINE_COLORS.length]!;
    return [{ kind: "line", color, label: `${zone.zone} nodes evicted` }, { kind: "line", color, dashed: true, label: `${zone.zone} rate limit (tokens taken + bucket)` }];
  });
  return [
    legend(items),
    svg(frame, "Node evictions per zone (solid) and the zone's rate limit as node-lifecycle/zone-eviction-rate checks it (dashed): tokens taken plus the tokens in the bucket", body.join("")),
    svg(podFrame, "Pods evicted, cumulative", valueAxis(podFrame, "Pods evicted, cumulative") + stepLine(podFrame, pods, "#555")),
  ].join("\n");
}

/** A legend entry: a line (solid or dashed) or a filled box. */
type LegendItem =
  | { readonly kind: "line"; readonly color: string; readonly dashed?: boolean; readonly label: string }
  | { readonly kind: "box"; readonly color: string; readonly opacity?: number; readonly label: string };

/** A visible legend above a chart (HTML, so it wraps). */
function legend(items: readonly LegendItem[]): string {
  const entries = items.map((item) => {
    const swatch =
      item.kind === "line"
        ? `<span class="swatch-line" style="border-top:2px ${item.dashed === true ? "dashed" : "solid"} ${item.color}"></span>`
        : `<span class="swatch-box" style="background:${item.color}${item.opacity !== undefined ? `;opacity:${item.opacity}` : ""}"></span>`;
    return `<span class="legend-item">${swatch} ${escapeMarkupText(item.label)}</span>`;
  });
  return `<div class="legend">${entries.join("")}</div>`;
}
