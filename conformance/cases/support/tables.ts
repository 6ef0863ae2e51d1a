/**
 * Tables (doc 1 §2.5): the shape of a Table, the column holding the names, and the default
 * Table (Name and Created At) of a type with no Table of its own.
 */
import { check, checkEqual } from "../../check.ts";
import { recordOf } from "../../client/json-fields.ts";
import { metadataOf } from "./object-body.ts";

/** A column definition as the checks read it. */
export interface TableColumn {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
}

/** A Table as the checks read it. */
export interface CheckedTable {
  /** undefined when the Table carried none (watch events after the first). */
  readonly columns: readonly TableColumn[] | undefined;
  readonly rows: ReadonlyArray<{ readonly cells: readonly unknown[]; readonly object?: unknown }>;
}

/**
 * Fails unless `body` is a Table (doc 1 §2.5): kind Table, apiVersion `<meta-group>/v1`,
 * columnDefinitions whose entries each have a name and a type (optional only where
 * `headers` says so: watch events after the first may send null), and rows whose cells match
 * the columns.
 */
export function checkTable(body: unknown, metaGroup: string, what: string, headers: "required" | "optional" = "required"): CheckedTable {
  check(typeof body === "object" && body !== null, `${what}: no JSON object in the answer`);
  const table = recordOf(body);
  checkEqual(table.kind, "Table", `${what}: kind`);
  checkEqual(table.apiVersion, `${metaGroup}/v1`, `${what}: apiVersion (the Table media type asked for v=v1 of ${metaGroup})`);
  const definitions = table.columnDefinitions;
  let columns: TableColumn[] | undefined;
  if (definitions === null || definitions === undefined) {
    check(headers === "optional", `${what}: the Table has no columnDefinitions`);
  } else {
    check(Array.isArray(definitions) && definitions.length > 0, `${what}: columnDefinitions should be a non-empty array, got ${JSON.stringify(definitions)?.slice(0, 200)}`);
    columns = (definitions as readonly unknown[]).map((definition, index) => {
      const { name, type, format } = recordOf(definition);
      check(typeof name === "string" && name !== "", `${what}: columnDefinitions[${index}] has no name: ${JSON.stringify(definition)?.slice(0, 200)}`);
      check(typeof type === "string" && type !== "", `${what}: columnDefinitions[${index}] (${name}) has no type: ${JSON.stringify(definition)?.slice(0, 200)}`);
      return { name, type, ...(typeof format === "string" && { format }) };
    });
  }
  // A default Table of an empty list has rows null (Kubernetes' nil slice).
  const rows = table.rows === null ? [] : table.rows;
  check(Array.isArray(rows), `${what}: rows should be an array, got ${JSON.stringify(table.rows)?.slice(0, 200)}`);
  for (const [index, row] of (rows as readonly unknown[]).entries()) {
    const cells = recordOf(row).cells;
    check(Array.isArray(cells), `${what}: rows[${index}] has no cells`);
    if (columns !== undefined) check(cells.length === columns.length, `${what}: rows[${index}] has ${cells.length} cells for ${columns.length} columns`);
  }
  // Every row checked above: a JSON object with an array of cells.
  return { columns, rows: rows as CheckedTable["rows"] };
}

/** The index of the column holding the object's name: format "name", else the column called Name. */
export function nameColumn(columns: readonly TableColumn[], what: string): number {
  const byFormat = columns.findIndex((column) => column.format === "name");
  const index = byFormat >= 0 ? byFormat : columns.findIndex((column) => column.name === "Name");
  check(index >= 0, `${what}: no column holds the object's name (format "name", or called Name): ${columns.map((column) => column.name).join(", ")}`);
  return index;
}

/** The names the rows print, read from the name column. */
export function rowNames(table: CheckedTable, columns: readonly TableColumn[], what: string): unknown[] {
  const index = nameColumn(columns, what);
  return table.rows.map((row) => row.cells[index]);
}

/**
 * Doc 1 §2.5's default Table: exactly the columns Name (type string) and Created At (type date),
 * the cells the object's name and creationTimestamp (read from each row's object, the
 * PartialObjectMetadata a Table row carries by default).
 */
export function checkDefaultTable(table: CheckedTable, what: string): void {
  const columns = table.columns ?? [];
  checkEqual(
    columns.map((column) => [column.name, column.type]),
    [
      ["Name", "string"],
      ["Created At", "date"],
    ],
    `${what}: columns (name, type) of the default Table`,
  );
  for (const [index, row] of table.rows.entries()) {
    const metadata = metadataOf(row.object);
    check(typeof metadata.name === "string", `${what}: rows[${index}] carries no object metadata to compare the cells with`);
    checkEqual(row.cells[0], metadata.name, `${what}: rows[${index}] Name cell (the object's name)`);
    checkEqual(row.cells[1], metadata.creationTimestamp, `${what}: rows[${index}] Created At cell (the object's creationTimestamp)`);
  }
}
