/**
 * A minimal time chart in inline SVG for the simulation report: a time axis in seconds, a value
 * axis, step lines, bands and labelled lanes. Text is escaped; numbers are rounded to 0.1 px.
 */
import { escapeMarkupAttr, escapeMarkupText } from "../markup-escape.ts";
import type { Point } from "./simulation-series.ts";

/** Geometry of one chart. */
export interface ChartFrame {
  readonly width: number;
  readonly height: number;
  /** Left margin for lane labels or the value axis. */
  readonly left: number;
  readonly top: number;
  readonly bottom: number;
  readonly right: number;
  /** Seconds shown: [0, durationS]. */
  readonly durationS: number;
  /** Values shown: [0, maxValue]. */
  readonly maxValue: number;
}

const r = (value: number) => Math.round(value * 10) / 10;

/** The x of time `t` (seconds). */
export function xOf(frame: ChartFrame, t: number): number {
  return r(frame.left + (Math.min(Math.max(t, 0), frame.durationS) / Math.max(frame.durationS, 1e-9)) * (frame.width - frame.left - frame.right));
}

/** The y of `value`. */
export function yOf(frame: ChartFrame, value: number): number {
  const plot = frame.height - frame.top - frame.bottom;
  return r(frame.top + plot - (Math.min(value, frame.maxValue) / Math.max(frame.maxValue, 1e-9)) * plot);
}

/** `<svg>` with `body`, an accessible title and the time axis. */
export function svg(frame: ChartFrame, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="0 0 ${frame.width} ${frame.height}" role="img"><title>${escapeMarkupText(title)}</title>${timeAxis(frame)}${body}</svg>`;
}

function timeAxis(frame: ChartFrame): string {
  const y = frame.height - frame.bottom;
  const step = timeStepS(frame.durationS / 8);
  const ticks: string[] = [];
  for (let t = 0; t <= frame.durationS + 1e-9; t += step) {
    const x = xOf(frame, t);
    ticks.push(`<line x1="${x}" y1="${frame.top}" x2="${x}" y2="${y}" stroke="#eee"/><text x="${x}" y="${y + 14}" font-size="10" text-anchor="middle">${formatTick(t, step)}</text>`);
  }
  return `<g font-family="sans-serif">${ticks.join("")}<line x1="${frame.left}" y1="${y}" x2="${frame.width - frame.right}" y2="${y}" stroke="#888"/></g>`;
}

/** A value axis with a few labelled gridlines. */
export function valueAxis(frame: ChartFrame, label: string): string {
  const step = niceStep(frame.maxValue / 4);
  const lines: string[] = [];
  for (let value = 0; value <= frame.maxValue + 1e-9; value += step) {
    const y = yOf(frame, value);
    lines.push(`<line x1="${frame.left}" y1="${y}" x2="${frame.width - frame.right}" y2="${y}" stroke="#f3f3f3"/><text x="${frame.left - 4}" y="${y + 3}" font-size="10" text-anchor="end">${r(value)}</text>`);
  }
  return `<g font-family="sans-serif">${lines.join("")}<text x="4" y="${frame.top - 4}" font-size="10">${escapeMarkupText(label)}</text></g>`;
}

/** A step line through `points` (each value holds until the next point). */
export function stepLine(frame: ChartFrame, points: readonly Point[], color: string, dashed = false): string {
  const thinned = thin(frame, points);
  if (thinned.length === 0) return "";
  let d = `M${xOf(frame, thinned[0]!.t)},${yOf(frame, thinned[0]!.value)}`;
  for (const point of thinned.slice(1)) d += `H${xOf(frame, point.t)}V${yOf(frame, point.value)}`;
  return `<path d="${d}" fill="none" stroke="${escapeMarkupAttr(color)}" stroke-width="1.5"${dashed ? ' stroke-dasharray="4 3"' : ""}/>`;
}

/** A straight polyline through `points` (for envelopes that grow continuously). */
export function polyline(frame: ChartFrame, points: readonly Point[], color: string, dashed = false): string {
  const thinned = thin(frame, points);
  const coordinates = thinned.map((point) => `${xOf(frame, point.t)},${yOf(frame, point.value)}`).join(" ");
  return `<polyline points="${coordinates}" fill="none" stroke="${escapeMarkupAttr(color)}" stroke-width="1.2"${dashed ? ' stroke-dasharray="4 3"' : ""}/>`;
}

/** A filled band over [from, to] seconds between two y coordinates, with a tooltip (and extra, trusted `attributes`). */
export function band(frame: ChartFrame, from: number, to: number, y: number, height: number, color: string, tooltip: string, attributes = ""): string {
  const x = xOf(frame, from);
  const width = Math.max(1, r(xOf(frame, to) - x));
  return `<rect x="${x}" y="${r(y)}" width="${width}" height="${r(height)}" fill="${escapeMarkupAttr(color)}"${attributes === "" ? "" : ` ${attributes}`}><title>${escapeMarkupText(tooltip)}</title></rect>`;
}

/** A text label at the left of a lane. */
export function laneLabel(y: number, text: string): string {
  return `<text x="4" y="${r(y)}" font-size="11" font-family="sans-serif">${escapeMarkupText(text)}</text>`;
}

// One point per horizontal pixel at most (the last), keeping first and last.
function thin(frame: ChartFrame, points: readonly Point[]): Point[] {
  const out: Point[] = [];
  let lastX = Number.NaN;
  for (const point of points) {
    const x = Math.round(xOf(frame, point.t));
    if (x === lastX) out[out.length - 1] = point;
    else out.push(point);
    lastX = x;
  }
  return out;
}

function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalized = raw / magnitude;
  return (normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10) * magnitude;
}

// Steps a reader counts in: seconds, minutes and hours in the usual divisions.
const TIME_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** The smallest usual time step of at least `rawS` seconds (a multiple of a day past the list). */
export function timeStepS(rawS: number): number {
  if (!(rawS > 0)) return 1;
  return TIME_STEPS_S.find((step) => step >= rawS) ?? Math.ceil(rawS / 86400) * 86400;
}

/** A tick at `t` seconds in the unit of the axis' `step`, so one axis never mixes "1000s" and "25m". */
export function formatTick(t: number, stepS: number): string {
  if (stepS % 3600 === 0) return `${t / 3600}h`;
  if (stepS % 60 === 0) return `${t / 60}m`;
  return `${Math.round(t * 10) / 10}s`;
}
