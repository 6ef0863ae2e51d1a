// TEMP until spec/doc1/limits.ts lands
export const RETAINED_HISTORY_MS = 5 * 60_000;
