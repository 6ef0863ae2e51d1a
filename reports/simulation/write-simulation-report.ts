/** Writes a simulation's results.json and index.html into a directory. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { simulationPage } from "./simulation-page.ts";
import type { SimulationResults } from "./simulation-results.ts";

/** The files written. */
export interface WrittenSimulationReport {
  readonly resultsPath: string;
  readonly pagePath: string;
}

/** Writes both files under `directory` (created if missing). */
export async function writeSimulationReport(directory: string, results: SimulationResults): Promise<WrittenSimulationReport> {
  await mkdir(directory, { recursive: true });
  const resultsPath = path.join(directory, "results.json");
  const pagePath = path.join(directory, "index.html");
  await writeFile(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(pagePath, simulationPage(results));
  return { resultsPath, pagePath };
}
