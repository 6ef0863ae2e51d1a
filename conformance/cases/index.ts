/** Every conformance case, area by area. */
import type { ConformanceCase } from "../case-definition.ts";
import { pagingCases } from "./paging.ts";
import { crudCases } from "./crud.ts";
import { discoveryCases } from "./discovery.ts";
import { metadataCases } from "./metadata.ts";
import { deletionCases } from "./deletion.ts";
import { errorCases } from "./errors.ts";
import { watchCases } from "./watch.ts";
import { resourceVersionCases } from "./resource-versions.ts";
import { dryRunCases } from "./dry-run.ts";
import { pagingExpiryCases } from "./paging-expiry.ts";
import { healthCases } from "./health.ts";
import { authorizationCases } from "./authorization.ts";
import { representationCases } from "./representations.ts";
import { parameterCases } from "./parameters.ts";

/** All cases, in the order they run. */
export const allCases: readonly ConformanceCase[] = [...pagingCases, ...crudCases, ...discoveryCases, ...metadataCases, ...deletionCases, ...errorCases, ...watchCases, ...resourceVersionCases, ...dryRunCases, ...pagingExpiryCases, ...healthCases, ...authorizationCases, ...representationCases, ...parameterCases];
