/**
 * CPU lists as Linux and the node agent write them (`0-3,7,9-10`), for doc 3's reservedSystemCPUs:
 * Kubernetes' cpuset.Parse accepts comma-separated CPU numbers and ascending ranges, and the empty
 * string.
 */

/** Parses a CPU list into its sorted CPU numbers, or returns a message saying what is wrong. */
export function parseCpuList(text: string): { readonly cpus: readonly number[] } | { readonly error: string } {
  if (text.trim() === "") return { cpus: [] };
  const cpus = new Set<number>();
  for (const item of text.split(",")) {
    const range = /^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$/.exec(item);
    if (range === null) return { error: `${JSON.stringify(item)} is not a CPU number or range` };
    const start = Number(range[1]);
    const end = range[2] === undefined ? start : Number(range[2]);
    if (end < start) return { error: `invalid range ${JSON.stringify(item)} (${start} > ${end})` };
    if (end - start > 65_536) return { error: `range ${JSON.stringify(item)} is implausibly large` };
    for (let cpu = start; cpu <= end; cpu++) cpus.add(cpu);
  }
  return { cpus: [...cpus].sort((a, b) => a - b) };
}
