/** timeline.html of a soak (history-timeline.ts): escaping, the witness highlighted, every lane, the size of a big history. */
import { describe, expect, it } from "vitest";
import type { ApiHistory, ObjectState, Operation, WatchEvent, WatchOperation, WriteOperation } from "../sim/history/api-history.ts";
import type { HistoryVerdict } from "../sim/history/history-verdict.ts";
import { DETAIL_LIMIT, MAX_PANELS, renderHistoryTimeline } from "./history-timeline.ts";

const OPTIONS = { title: "soak: embedded, seed 7", replayCommand: "orb-harness soak --seed 7 --duration 60s" };

const state = (name: string, resourceVersion: string, value?: string): ObjectState => ({ name, uid: `uid-${name}`, resourceVersion, value, labels: {} });

function write(id: number, client: string, startMs: number, name: string, value: string, resourceVersion: string, answer: "ok" | "failed" | "uncertain" = "ok"): WriteOperation {
  return {
    kind: "write",
    id,
    client,
    startMs,
    endMs: answer === "uncertain" ? undefined : startMs + 4,
    verb: "patch",
    name,
    precondition: undefined,
    value,
    labels: {},
    answer:
      answer === "ok"
        ? { type: "ok", code: 200, object: state(name, resourceVersion, value) }
        : answer === "failed"
          ? { type: "failed", code: 409, reason: "Conflict" }
          : { type: "uncertain", error: "timeout" },
  };
}

function event(atMs: number, object: ObjectState): WatchEvent {
  return { atMs, type: "MODIFIED", object, bookmarkVersion: undefined, status: undefined };
}

function watch(id: number, client: string, startMs: number, endMs: number, events: WatchEvent[]): WatchOperation {
  return { kind: "watch", id, client, startMs, endMs, labelSelector: undefined, resourceVersion: undefined, allowWatchBookmarks: false, resumes: undefined, opened: { type: "ok" }, events, ending: "run-ended" };
}

const HOSTILE = `<script>alert("x")</script>&'`;

/** A small history: two writers (one with a hostile name), a watcher that misses write 2, a reader. */
function smallHistory(): { history: ApiHistory; verdicts: HistoryVerdict[] } {
  const w1 = write(1, "writer-a", 1010, "soak-k01", "writer-a-1", "11");
  const w2 = write(2, HOSTILE, 1020, `k<b>"2"</b>`, `v"<i>2`, "12");
  const w3 = write(3, "writer-a", 1030, "soak-k03", "writer-a-3", "13");
  const w4 = write(4, HOSTILE, 1040, "soak-k04", "lost?", "14", "uncertain");
  const stream = watch(0, "watcher-a", 1000, 1100, [event(1015, state("soak-k01", "11", "writer-a-1")), event(1035, state("soak-k03", "13", "writer-a-3"))]);
  const get: Operation = { kind: "get", id: 5, client: "reader-a", startMs: 1050, endMs: 1052, name: "soak-k01", resourceVersion: undefined, answer: { type: "failed", code: 404, reason: "NotFound" } };
  const history: ApiHistory = {
    namespace: "orb-soak-7",
    seed: 7,
    target: "embedded http://127.0.0.1:1234",
    clients: [
      { id: "writer-a", role: "writer" },
      { id: HOSTILE, role: "writer" },
      { id: "watcher-a", role: "watcher" },
      { id: "reader-a", role: "reader" },
    ],
    operations: [stream, w1, w2, w3, w4, get],
    startMs: 1000,
    endMs: 1100,
  };
  const verdicts: HistoryVerdict[] = [
    { id: "history/write-versions", held: true, checked: 3 },
    {
      id: "history/acknowledged-write-durable",
      held: false,
      checked: 3,
      witness: { explanation: `write #2 (${w2.name}) was acknowledged but watch #0 skipped it`, operations: [2, 0], events: [{ operation: 0, index: 0 }, { operation: 0, index: 1 }] },
    },
    { id: "watch/bookmark-order", held: true, checked: 0 },
  ];
  return { history, verdicts };
}

/** The `<svg>…</svg>` charts of a page, in order (zoom panels first, then the whole run). */
function charts(html: string): string[] {
  return [...html.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((match) => match[0]);
}

/** Lane labels of a chart (the text before the count). */
function laneLabels(svg: string): string[] {
  return [...svg.matchAll(/<text class="lane"[^>]*>([^<]*)<tspan/g)].map((match) => match[1]!);
}

describe("renderHistoryTimeline", () => {
  it("is one self-contained page: no script, nothing loaded, a policy that forbids loading", () => {
    const { history, verdicts } = smallHistory();
    const html = renderHistoryTimeline(history, verdicts, OPTIONS);
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|<link|<img|src=|url\((?!#)/i);
  });

  it("escapes client ids, object names, values and the explanation wherever they appear", () => {
    const { history, verdicts } = smallHistory();
    const html = renderHistoryTimeline(history, verdicts, { title: `soak <${HOSTILE}>`, replayCommand: `orb-harness soak --server "https://x/?a=1&b=<2>"` });
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain("<b>");
    expect(html).not.toContain("<i>");
    expect(html).toContain("&lt;script&gt;alert(");
    expect(html).toContain("&lt;/script&gt;&amp;'");
    expect(html).toContain("k&lt;b&gt;");
    expect(html).toContain(`orb-harness soak --server "https://x/?a=1&amp;b=&lt;2&gt;"`);
    // Every tag that opens is one of ours.
    const tags = new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => match[1]!.toLowerCase()));
    const ours = ["html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "dl", "dt", "dd", "span", "nav", "a", "main", "section", "table", "thead", "tbody", "tr", "th", "td", "code", "small", "br", "article", "p", "pre", "figure", "figcaption", "svg", "defs", "pattern", "rect", "text", "tspan", "line", "path", "g"];
    expect([...tags].filter((tag) => !ours.includes(tag))).toEqual([]);
  });

  it("lists every verdict with its checked count, and each violation with its rule, witness and replay command", () => {
    const { history, verdicts } = smallHistory();
    const html = renderHistoryTimeline(history, verdicts, OPTIONS);
    expect(html).toMatch(/held<\/span><\/td><td><code>history\/write-versions<\/code>[\s\S]*?<td class="num">3<\/td>/);
    expect(html).toMatch(/VIOLATED<\/a><\/td><td><code>history\/acknowledged-write-durable<\/code>/);
    expect(html).toContain("held (nothing to check)");
    expect(html).toContain("no acknowledged write is lost");
    expect(html).toContain("was acknowledged but watch #0 skipped it");
    expect(html).toContain(`<code class="command">orb-harness soak --seed 7 --duration 60s</code>`);
    expect(html).toContain("1 of 3 invariants violated");
    // The verdicts table links to the violation's article.
    const link = /href="#(violation-\d+)">VIOLATED/.exec(html)?.[1];
    expect(html).toContain(`<article class="violation" id="${link}">`);
  });

  it("highlights the witness's operations and events, and nothing else", () => {
    const { history, verdicts } = smallHistory();
    const [zoom, whole] = charts(renderHistoryTimeline(history, verdicts, OPTIONS));
    for (const svg of [zoom!, whole!]) {
      expect(svg).toMatch(/<rect class="op write witness" data-op="2"/);
      expect(svg).toMatch(/<rect class="op watch witness" data-op="0"/);
      expect(svg).toMatch(/<rect class="event witness" data-op="0" data-event="0"/);
      expect(svg).toMatch(/<rect class="event witness" data-op="0" data-event="1"/);
      expect(svg).toMatch(/<rect class="op write" data-op="1"/);
      expect(svg).toMatch(/<rect class="witness-ring"/);
      const highlighted = [...svg.matchAll(/class="[^"]*witness[^"]*" data-op="(\d+)"/g)].map((match) => Number(match[1]));
      expect([...new Set(highlighted)].sort()).toEqual([0, 2]);
    }
  });

  it("draws an operation without an answer hatched and open-ended, one answered with an error outlined", () => {
    const { history, verdicts } = smallHistory();
    const whole = charts(renderHistoryTimeline(history, verdicts, OPTIONS)).at(-1)!;
    expect(whole).toMatch(/<rect class="op write uncertain" data-op="4"[^>]*fill="url\(#run-hatch-write\)"/);
    expect(whole).toMatch(/<pattern id="run-hatch-write"/);
    expect(whole).toMatch(/<rect class="op get failed" data-op="5"[^>]*fill="#fff" stroke="#1c7ed6"/);
  });

  it("shows details on hover: verb, name, value, version, answer and times", () => {
    const { history, verdicts } = smallHistory();
    const html = renderHistoryTimeline(history, verdicts, OPTIONS);
    expect(html).toContain("<title>#1 writer-a: patch soak-k01 (v=writer-a-1) → 200 soak-k01@11 v=writer-a-1\nsent 0.010 s (1010.0 ms), answered 0.014 s (1014.0 ms) (4.0 ms)</title>");
    expect(html).toContain("#4 &lt;script&gt;");
    expect(html).toContain("→ no answer (timeout)\nsent 0.040 s (1040.0 ms), no answer</title>");
    expect(html).toContain("<title>#0 watcher-a event 1: MODIFIED soak-k03@13 v=writer-a-3\nat 0.035 s (1035.0 ms)</title>");
  });

  it("gives every client a lane in every chart, grouped by role, also a client the history does not list", () => {
    const { history, verdicts } = smallHistory();
    const stranger = write(6, "ghost", 1060, "soak-k01", "ghost-6", "15");
    const html = renderHistoryTimeline({ ...history, operations: [...history.operations, stranger] }, verdicts, OPTIONS);
    const expected = ["writer-a", `&lt;script&gt;alert("x…`, "watcher-a", "reader-a", "ghost"];
    for (const svg of charts(html)) {
      expect(laneLabels(svg)).toEqual(expected);
      expect([...svg.matchAll(/<text class="group"[^>]*>([^<]*)</g)].map((match) => match[1])).toEqual(["writers", "watchers", "readers", "others"]);
    }
  });

  it("says so when every invariant held", () => {
    const { history } = smallHistory();
    const html = renderHistoryTimeline(history, [{ id: "history/write-order", held: true, checked: 4 }], OPTIONS);
    expect(html).toContain("None: every invariant held.");
    expect(html).toContain("every invariant held");
    expect(charts(html)).toHaveLength(1);
  });

  it("draws panels for the first violations only, and lists the rest", () => {
    const { history } = smallHistory();
    const witness = { explanation: "see #1", operations: [1], events: [] };
    const many: HistoryVerdict[] = Array.from({ length: MAX_PANELS + 2 }, (_, index) => ({ id: `history/rule-${index}`, held: false, checked: 1, witness }));
    const html = renderHistoryTimeline(history, many, OPTIONS);
    expect(charts(html)).toHaveLength(MAX_PANELS + 1);
    expect(html.match(/<article class="violation"/g)).toHaveLength(MAX_PANELS + 2);
    expect(html).toContain(`Timeline panels are drawn for the first ${MAX_PANELS} violations only.`);
  });

  it("stays a few megabytes for 100,000 operations: density at full scale, detail around the witness", () => {
    const clients = [
      ...[0, 1, 2, 3].map((n) => ({ id: `writer-${n}`, role: "writer" as const })),
      ...[0, 1].map((n) => ({ id: `watcher-${n}`, role: "watcher" as const })),
      ...[0, 1].map((n) => ({ id: `reader-${n}`, role: "reader" as const })),
    ];
    const operations: Operation[] = [];
    const events: WatchEvent[] = [];
    let id = 2;
    for (let index = 0; index < 80_000; index++) {
      const startMs = index * 0.75;
      const object = state(`soak-k${index % 20}`, String(index + 2), `v-${index}`);
      operations.push(write(id++, `writer-${index % 4}`, startMs, object.name, object.value!, object.resourceVersion, index % 50 === 0 ? "failed" : "ok"));
      events.push(event(startMs + 4.5, object));
    }
    for (let index = 0; index < 19_998; index++) {
      operations.push({ kind: "get", id: id++, client: `reader-${index % 2}`, startMs: index * 3, endMs: index * 3 + 1, name: "soak-k1", resourceVersion: undefined, answer: { type: "ok", object: state("soak-k1", "3") } });
    }
    operations.push(watch(0, "watcher-0", 0, 60_000, events), watch(1, "watcher-1", 0, 60_000, events));
    operations.sort((a, b) => a.startMs - b.startMs || a.id - b.id);
    const history: ApiHistory = { namespace: "n", seed: 1, target: "t", clients, operations, startMs: 0, endMs: 60_000 };
    expect(operations).toHaveLength(100_000);
    const target = operations.find((operation) => operation.kind === "write" && operation.startMs >= 30_000 && operation.answer.type === "ok")!;
    const verdicts: HistoryVerdict[] = [{ id: "watch/no-gap", held: false, checked: 1, witness: { explanation: "gap", operations: [target.id, 0], events: [{ operation: 0, index: 40_000 }] } }];
    const html = renderHistoryTimeline(history, verdicts, OPTIONS);
    expect(html.length).toBeLessThan(3 * 1024 * 1024);
    const [zoom, whole] = charts(html);
    // The panel: the witness's write in detail, the witness's event marked, no more than the detail limit.
    expect(zoom).toContain(`class="op write witness" data-op="${target.id}"`);
    expect(zoom).toContain(`class="event witness" data-op="0" data-event="40000"`);
    expect((zoom!.match(/<rect class="(op|event)[ "]/g) ?? []).length).toBeLessThanOrEqual(DETAIL_LIMIT + 10);
    // The whole run: density, not one bar per operation; every lane; the witness marked.
    expect(whole).toContain(`<g class="density">`);
    expect((whole!.match(/<rect class="op /g) ?? []).length).toBe(0);
    expect(laneLabels(whole!)).toEqual(clients.map((client) => client.id));
    expect(whole).toContain(`class="witness-ring" data-op="${target.id}"`);
    expect(whole).toContain(`class="witness-mark" data-op="0" data-event="40000"`);
  });

  it("draws a crowded witness window partly as density, keeping the witness in detail", () => {
    const operations: Operation[] = [];
    for (let index = 0; index < 3 * DETAIL_LIMIT; index++) operations.push(write(index, `writer-${index % 3}`, 100 + index * 0.01, "k", `v${index}`, String(index + 2)));
    const history: ApiHistory = { namespace: "n", seed: 1, target: "t", clients: [0, 1, 2].map((n) => ({ id: `writer-${n}`, role: "writer" as const })), operations, startMs: 0, endMs: 200 };
    const last = operations.at(-1)!;
    const html = renderHistoryTimeline(history, [{ id: "history/write-order", held: false, checked: 1, witness: { explanation: "x", operations: [0, last.id], events: [] } }], OPTIONS);
    const [zoom] = charts(html);
    expect(zoom).toContain(`class="op write witness" data-op="0"`);
    expect(zoom).toContain(`class="op write witness" data-op="${last.id}"`);
    expect(zoom).toContain(`<g class="density">`);
    expect((zoom!.match(/<rect class="op /g) ?? []).length).toBeLessThanOrEqual(DETAIL_LIMIT);
  });
});
