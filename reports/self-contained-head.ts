/**
 * The head of every self-contained HTML report (the conformance report, the soak timeline, the
 * campaign report): no resource is loaded (the Content-Security-Policy says so to the browser), so
 * a page opened from a CI artifact shows exactly what it holds. No script runs either, unless the
 * page brings its own inline `script`: the policy then allows that one script by its SHA-256 hash
 * and nothing else (the conformance report's filter box).
 */
import { createHash } from "node:crypto";
import { escapeMarkupText as text } from "./markup-escape.ts";

/** The Content-Security-Policy of a self-contained page, allowing `script` (inline) when given. */
export function selfContainedPolicy(script?: string): string {
  const scripts = script === undefined ? "" : `; script-src 'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
  return `default-src 'none'; style-src 'unsafe-inline'${scripts}`;
}

/**
 * Lines from the doctype to `<body>`, with `title` escaped and `style` inlined; `script`, when
 * given, is inlined in the head (it must not contain `</script`, and should wait for
 * DOMContentLoaded before touching the page).
 */
export function selfContainedHead(title: string, style: string, script?: string): string[] {
  if (script?.toLowerCase().includes("</script") === true) throw new Error("an inline script cannot contain </script");
  return [
    "<!DOCTYPE html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="${selfContainedPolicy(script)}">`,
    `<title>${text(title)}</title>`,
    `<style>${style}</style>`,
    ...(script === undefined ? [] : [`<script>${script}</script>`]),
    "</head>",
    "<body>",
  ];
}

/**
 * The layout the soak timeline and the campaign report share: type, headings, code, fact lists,
 * tables. Each page adds its colours (the custom properties used here) and its own classes.
 */
export const REPORT_LAYOUT_STYLE = `*{box-sizing:border-box}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;padding:1rem 1.5rem;max-width:1380px}
h1{font-size:1.4rem;margin:.5rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.25rem;margin-top:2rem}h3{margin:.25rem 0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
code{background:var(--code);padding:0 .25em;border-radius:4px;word-break:break-all}
pre{background:var(--code);padding:.5rem .75rem;border-radius:6px;overflow:auto;white-space:pre-wrap;max-height:24rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;margin:0}dt{color:var(--muted)}dd{margin:0}
nav{margin:1rem 0;color:var(--muted)}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}tr.bad td{background:var(--badbg)}`;
