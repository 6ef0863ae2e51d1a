/**
 * Test support: lay out an HTML report in a headless Chromium and read back its sizes, the way a
 * reader's browser sees the page. No DevTools client is needed: a copy of the page gets a script
 * that writes the sizes into the DOM (its hash added to the page's Content-Security-Policy, which
 * otherwise stays as written, so the page's own script runs only if the policy allows it), and
 * Chromium's `--dump-dom` prints the DOM after the page loaded. Used by html-layout.test.ts and by hand
 * (`npx tsx reports/browser-layout.ts report.html`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** What the page measured, in CSS pixels. */
export interface PageLayout {
  readonly viewportWidth: number;
  readonly scrollWidth: number;
  readonly scrollHeight: number;
  /** Height of each `section[id]` by id. */
  readonly sections: Readonly<Record<string, number>>;
  /** `details.case` elements in the Failures section. */
  readonly failureCount: number;
  /** Height of each of them, in page order. */
  readonly failureHeights: readonly number[];
  /** What the `probe` expression evaluated to after the measurements, if one was given. */
  readonly probe?: unknown;
  /** Elements whose right edge is beyond the viewport (tag.class and width), at most 10. */
  readonly overflowing: readonly string[];
}

const BROWSERS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** The first headless-capable Chromium on PATH, or undefined. */
export function findChromium(): string | undefined {
  for (const name of BROWSERS) {
    const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  return undefined;
}

const measure = (probe: string) => `
addEventListener("load", () => {
  const root = document.documentElement;
  const sections = {};
  for (const section of document.querySelectorAll("section[id]")) sections[section.id] = Math.round(section.getBoundingClientRect().height);
  const overflowing = [];
  for (const element of document.body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect();
    if (box.right > innerWidth + 0.5 && overflowing.length < 10) overflowing.push(element.tagName.toLowerCase() + "." + element.className + " " + Math.round(box.width));
  }
  const out = document.createElement("pre");
  out.id = "__layout";
  out.textContent = JSON.stringify({
    viewportWidth: innerWidth, scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight, sections,
    failureCount: document.querySelectorAll("#failures details.case").length, overflowing,
    failureHeights: [...document.querySelectorAll("#failures details.case")].map((element) => Math.round(element.getBoundingClientRect().height)),
    probe: (() => { ${probe} })(),
  });
  document.body.append(out);
});
`;

/**
 * Lays `html` out in `browser` at `width`×`height` and returns its sizes; `probe`, a function body
 * run after measuring, can act on the page (type into a box) and return what it saw.
 */
export function measureLayout(browser: string, html: string, width = 1400, height = 900, probe = "return undefined;"): PageLayout {
  const dir = mkdtempSync(join(tmpdir(), "orb-layout-"));
  try {
    const page = join(dir, "page.html");
    const script = measure(probe);
    const hash = `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
    const allowed = html.replace(/(<meta http-equiv="Content-Security-Policy" content=")([^"]*)"/, (_, start: string, policy: string) =>
      policy.includes("script-src ") ? `${start}${policy.replace("script-src ", `script-src ${hash} `)}"` : `${start}${policy}; script-src ${hash}"`,
    );
    writeFileSync(page, allowed.replace("</body>", `<script>${script}</script></body>`));
    const dom = execFileSync(
      browser,
      ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", `--user-data-dir=${join(dir, "profile")}`, `--window-size=${width},${height}`, "--dump-dom", pathToFileURL(page).href],
      { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"], timeout: 60_000 },
    );
    const match = /<pre id="__layout">([^<]*)<\/pre>/.exec(dom);
    if (match === null) throw new Error("the page did not report its layout");
    return JSON.parse(match[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) as PageLayout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const browser = findChromium();
  if (browser === undefined) throw new Error("no chromium on PATH");
  const { readFileSync } = await import("node:fs");
  for (const file of process.argv.slice(2)) {
    const layout = measureLayout(browser, readFileSync(file, "utf8"));
    const failures = layout.sections["failures"] ?? 0;
    console.log(file, JSON.stringify({ ...layout, failuresPerFailure: layout.failureCount === 0 ? 0 : Math.round(failures / layout.failureCount) }));
  }
}
