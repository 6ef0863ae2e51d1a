/**
 * The Table representation (doc 1 §2.5, §4.3): what kube-apiserver 1.26 answers to
 * `Accept: application/json;as=Table;g=<meta group>;v=v1` on a list, one object, or a watch.
 *
 * Shape (transcripts table-pods, table-nodes, table-configmaps, table-configmap-one,
 * table-namespaces-none, table-leases, watch-as-table):
 * - `kind: Table`, `apiVersion: <meta group>/<v1|v1beta1>`;
 * - `metadata`: the list's resourceVersion, continue and remainingItemCount, or the object's
 *   resourceVersion for a single object;
 * - `columnDefinitions`: every column, wide ones (priority 1) included; `null` on every watch
 *   event after the first (the server prints headers once per watch);
 * - `rows`: `cells` computed by the type's printer (ages from the server's clock, at the time of
 *   the answer), `conditions` where the printer sets them (completed pods), and `object` per
 *   `includeObject`: a PartialObjectMetadata of the meta group (Metadata, the default), the whole
 *   object with its own kind and apiVersion (Object), or null (None). An unrecognized
 *   `includeObject` is 400 BadRequest, raised (as Kubernetes does) only when there is a row.
 */
import type { Dialect } from "../../../spec/dialects.ts";
import type { Clock } from "../../kernel/clock.ts";
import { badRequest, type ApiError } from "../responses/api-error.ts";

import { apiVersionOf, type ResourceType } from "../routing/resource-types.ts";
import type { TableColumnDefinition } from "./columns.ts";
import { asPartialObjectMetadata, listMetaOf, metaApiVersion, objectMeta, type ListMeta, type MetaVersion, type PartialObjectMetadata } from "./partial-object-metadata.ts";
import { tablePrinterFor, type ApiObject, type TableCell, type TableRowCondition } from "./printers.ts";
import { goQuote } from "../responses/go-text.ts";

export type { TableColumnDefinition } from "./columns.ts";
export type { ListMeta, MetaVersion } from "./partial-object-metadata.ts";
export type { ApiObject, TableCell, TableRowCondition } from "./printers.ts";

/** The `includeObject` values of meta/v1 TableOptions. */
export type IncludeObject = "None" | "Metadata" | "Object";

/** One row of a Table. */
export interface TableRow {
  readonly cells: readonly TableCell[];
  readonly conditions?: readonly TableRowCondition[];
  /** PartialObjectMetadata (Metadata), the object (Object), or null (None). */
  readonly object: PartialObjectMetadata | ApiObject | null;
}

/** A meta/v1 (or v1beta1) Table. */
export interface Table {
  readonly kind: "Table";
  readonly apiVersion: string;
  readonly metadata: ListMeta;
  /** null when headers are omitted (watch events after the first). */
  readonly columnDefinitions: readonly TableColumnDefinition[] | null;
  /** null only for an empty list of a type printed with the default table (Kubernetes' nil slice). */
  readonly rows: readonly TableRow[] | null;
}

/** Options beyond the common arguments. */
export interface TableOptions {
  /** The meta version the client asked for (`v=` of the Accept header; default v1). */
  readonly version?: MetaVersion;
  /** Omit columnDefinitions (sent as null): watch events after the first. */
  readonly noHeaders?: boolean;
}

/** The served type whose objects are printed. */
export type TableType = Pick<ResourceType, "group" | "version" | "kind" | "resource">;

/**
 * The includeObject policy of a query value: absent or "" is Metadata; None, Metadata and Object
 * are themselves; anything else is Kubernetes' 400 (`unrecognized includeObject value: "x"`).
 */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (value === undefined || value === null || value === "") return "Metadata";
  if (value === "None" || value === "Metadata" || value === "Object") return value;
  throw unrecognizedIncludeObject(value);
}

function unrecognizedIncludeObject(value: string): ApiError {
  return badRequest(`unrecognized includeObject value: ${goQuote(value)}`);
}

/** The Table of a list (or one page of it): one row per item, in order. */
export function tableForList(
  type: TableType,
  items: readonly ApiObject[],
  listMeta: ListMeta,
  includeObject: string | null | undefined,
  clock: Pick<Clock, "nowMs">,
  dialect: Dialect,
  options: TableOptions = {},
): Table {
  const printer = tablePrinterFor(type, dialect);
  const rows = items.map((item) => row(type, item, printer.print(item, clock), includeObject, dialect, options.version));
  return {
    kind: "Table",
    apiVersion: metaApiVersion(dialect, options.version),
    metadata: listMetaOf(listMeta),
    columnDefinitions: options.noHeaders === true ? null : printer.columns,
    rows: rows.length === 0 && printer.isDefault ? null : rows,
  };
}

/** The Table of one object: one row; metadata carries the object's resourceVersion (transcript table-configmap-one). */
export function tableForObject(
  type: TableType,
  object: ApiObject,
  includeObject: string | null | undefined,
  clock: Pick<Clock, "nowMs">,
  dialect: Dialect,
  options: TableOptions = {},
): Table {
  const printer = tablePrinterFor(type, dialect);
  const resourceVersion = objectMeta(object)["resourceVersion"];
  return {
    kind: "Table",
    apiVersion: metaApiVersion(dialect, options.version),
    metadata: typeof resourceVersion === "string" && resourceVersion !== "" ? { resourceVersion } : {},
    columnDefinitions: options.noHeaders === true ? null : printer.columns,
    rows: [row(type, object, printer.print(object, clock), includeObject, dialect, options.version)],
  };
}

function row(
  type: TableType,
  object: ApiObject,
  printed: { readonly cells: readonly TableCell[]; readonly conditions?: readonly TableRowCondition[] },
  includeObject: string | null | undefined,
  dialect: Dialect,
  version: MetaVersion | undefined,
): TableRow {
  const policy = parseIncludeObject(includeObject);
  const included =
    policy === "None"
      ? null
      : policy === "Object"
        ? { kind: type.kind, apiVersion: apiVersionOf(type), ...object, metadata: objectMeta(object) }
        : asPartialObjectMetadata(object, dialect, version);
  return { cells: printed.cells, ...(printed.conditions !== undefined && { conditions: printed.conditions }), object: included };
}

/**
 * The object of one watch event when the client asked for a Table (transcript watch-as-table): a
 * one-row Table whose metadata carries the event object's resourceVersion; columnDefinitions only
 * when `options.noHeaders` is not set (the first event of the stream; null afterwards). A Status
 * (the object of an ERROR event) passes through unchanged. BOOKMARK objects are printed too, as
 * Kubernetes 1.26 does (their row has the empty name and an "<unknown>" age).
 */
export function tableForWatchEvent(
  type: TableType,
  object: ApiObject,
  includeObject: string | null | undefined,
  clock: Pick<Clock, "nowMs">,
  dialect: Dialect,
  options: TableOptions = {},
): Table | ApiObject {
  if (object["kind"] === "Status") return object;
  return tableForObject(type, object, includeObject, clock, dialect, options);
}

/**
 * The per-stream state of a Table watch: headers go out with the first event only, whatever it
 * is (an ERROR event's Status uses them up too, as in Kubernetes). Returns the function that turns
 * each event's object into what is sent.
 *
 * With an unrecognized `includeObject`, the transform throws the 400 ApiError at the first event
 * that has a row; Kubernetes 1.26 then fails to encode the event and ends the stream without
 * sending it, so the caller should close the stream.
 */
export function watchTableTransform(
  type: TableType,
  includeObject: string | null | undefined,
  clock: Pick<Clock, "nowMs">,
  dialect: Dialect,
  version: MetaVersion = "v1",
): (object: ApiObject) => Table | ApiObject {
  let headersSent = false;
  return (object) => {
    const result = tableForWatchEvent(type, object, includeObject, clock, dialect, { version, noHeaders: headersSent });
    headersSent = true;
    return result;
  };
}
