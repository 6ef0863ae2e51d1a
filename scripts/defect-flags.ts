/** `--defect` of `serve` and `soak`: the planted bugs of the embedded server (sim/apiserver/defects/defects.ts). */
import { defects, isDefectName, type DefectName } from "../sim/apiserver/defects/defects.ts";
import { closestName } from "../sim/config/did-you-mean.ts";
import { UsageError, type CliOutput } from "./cli-command.ts";

/** `--defect help`: every defect, one per line, its name first; a concurrency defect names its history rule. */
export function listDefects(output: CliOutput): void {
  const width = Math.max(...defects.map((defect) => defect.name.length));
  for (const defect of defects) {
    const tool = defect.caughtBy === "soak" ? ` [only concurrency shows it: soak, ${defect.historyRule}]` : "";
    output.out(`${defect.name.padEnd(width)}  ${defect.description}${tool}`);
  }
}

/** The defects named by `--defect`, each checked against the catalog. */
export function plantedDefects(names: readonly string[]): ReadonlySet<DefectName> {
  const known = defects.map((defect) => defect.name);
  const planted = new Set<DefectName>();
  for (const name of names) {
    if (isDefectName(name)) {
      planted.add(name);
      continue;
    }
    const suggestion = closestName(name, known);
    throw new UsageError(`unknown defect ${JSON.stringify(name)}${suggestion === undefined ? "" : `; did you mean ${JSON.stringify(suggestion)}?`} (--defect help lists them)`);
  }
  return planted;
}
