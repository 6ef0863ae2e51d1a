/**
 * The head of every self-contained HTML report (the conformance report, the soak timeline): no
 * resource is loaded and no script runs (the Content-Security-Policy says so to the browser), so
 * a page opened from a CI artifact shows exactly what it holds.
 */
import { escapeMarkupText as text } from "./markup-escape.ts";

/** Lines from the doctype to `<body>`, with `title` escaped and `style` inlined. */
export function selfContainedHead(title: string, style: string): string[] {
  return [
    "<!DOCTYPE html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${text(title)}</title>`,
    `<style>${style}</style>`,
    "</head>",
    "<body>",
  ];
}
