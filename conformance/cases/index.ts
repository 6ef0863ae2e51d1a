/**
 * Every conformance case, area by area. The only file here that imports case files: each case
 * file imports its helpers from support/, never from another case file (case-imports.test.ts).
 */
import type { ConformanceCase } from "../case-definition.ts";
import { pagingCases } from "./paging.ts";
import { crudCreateGetPutCases } from "./crud-create-get-put.ts";
import { crudUpdatePatchDeleteCases } from "./crud-update-patch-delete.ts";
import { applyCases } from "./apply.ts";
import { crudCollectionVerbCases } from "./crud-collection-verbs.ts";
import { crudNameCases } from "./crud-names.ts";
import { crudConflictAndEvictionCases } from "./crud-conflict-and-eviction.ts";
import { discoveryDocumentCases } from "./discovery-documents.ts";
import { discoveryPathCases } from "./discovery-paths.ts";
import { metadataCases } from "./metadata.ts";
import { deletionCases } from "./deletion.ts";
import { errorCases } from "./errors.ts";
import { watchStreamCases } from "./watch-stream.ts";
import { watchResumeCases } from "./watch-resume.ts";
import { watchHistoryCases } from "./watch-history.ts";
import { resourceVersionGetCases } from "./resource-version-get.ts";
import { resourceVersionListCases } from "./resource-version-list.ts";
import { resourceVersionWatchCases } from "./resource-version-watch.ts";
import { resourceVersionUnavailableCases } from "./resource-version-unavailable.ts";
import { dryRunPersistsNothingCases } from "./dry-run-persists-nothing.ts";
import { dryRunStagesAndValuesCases } from "./dry-run-stages-and-values.ts";
import { pagingExpiryCases } from "./paging-expiry.ts";
import { healthCases } from "./health.ts";
import { authorizationRestrictedIdentityCases } from "./authorization-restricted-identity.ts";
import { authorizationHealthAndCredentialCases } from "./authorization-health-and-credentials.ts";
import { representationNegotiationCases } from "./representations-negotiation.ts";
import { representationTableCases } from "./representations-tables.ts";
import { representationProtobufCases } from "./representations-protobuf.ts";
import { parameterCases } from "./parameters.ts";
import { customResourceCases } from "./custom-resources.ts";

/** All cases, in the order they run. */
export const allCases: readonly ConformanceCase[] = [
  ...pagingCases,
  ...crudCreateGetPutCases,
  ...crudUpdatePatchDeleteCases,
  ...applyCases,
  ...crudCollectionVerbCases,
  ...crudNameCases,
  ...crudConflictAndEvictionCases,
  ...discoveryDocumentCases,
  ...discoveryPathCases,
  ...metadataCases,
  ...deletionCases,
  ...errorCases,
  ...watchStreamCases,
  ...watchResumeCases,
  ...watchHistoryCases,
  ...resourceVersionGetCases,
  ...resourceVersionListCases,
  ...resourceVersionWatchCases,
  ...resourceVersionUnavailableCases,
  ...dryRunPersistsNothingCases,
  ...dryRunStagesAndValuesCases,
  ...pagingExpiryCases,
  ...healthCases,
  ...authorizationRestrictedIdentityCases,
  ...authorizationHealthAndCredentialCases,
  ...representationNegotiationCases,
  ...representationTableCases,
  ...representationProtobufCases,
  ...parameterCases,
  ...customResourceCases,
];
