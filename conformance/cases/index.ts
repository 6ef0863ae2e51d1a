/** Every conformance case, area by area. */
import type { ConformanceCase } from "../case-definition.ts";
import { pagingCases } from "./paging.ts";

/** All cases, in the order they run. */
export const allCases: readonly ConformanceCase[] = [...pagingCases];
