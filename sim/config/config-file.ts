/**
 * Configuration files as the node agent reads them: YAML or JSON (JSON is YAML), one document,
 * no duplicate keys (the kubelet's strict decoding rejects them), read with the maintained `yaml`
 * library under the YAML 1.2 core schema (so `yes` is a string, not a boolean). The caller reads
 * the file; this module only parses text.
 */
import { parseAllDocuments, stringify } from "yaml";

/** A parsed file, or what is wrong with it (with line and column where the parser gives them). */
export type ParsedConfigText = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** Parses the text of a YAML or JSON configuration file. */
export function parseConfigText(text: string): ParsedConfigText {
  const documents = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(documents)) return { ok: true, value: null }; // an empty stream
  const nonEmpty = documents.filter((document) => document.contents !== null || document.errors.length > 0);
  if (nonEmpty.length > 1) return { ok: false, error: `expected one document, found ${nonEmpty.length}` };
  const document = nonEmpty[0];
  if (document === undefined) return { ok: true, value: null };
  const error = document.errors[0];
  if (error !== undefined) return { ok: false, error: error.message.trim() };
  return { ok: true, value: document.toJS({ maxAliasCount: 100 }) };
}

/** Prints a configuration as YAML (the defaulted output of `validate`). */
export function printConfigYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

/** Prints a configuration as indented JSON. */
export function printConfigJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
