/**
 * The logging types of doc 3 §2.8: LoggingConfiguration, VModuleConfiguration items, FormatOptions
 * and JSONOptions. Doc 3 marks every field required; the kubelet fills them with the recommended
 * logging configuration (format text, flushFrequency 5s, verbosity 0), and so does the harness.
 */
import { boolField, listField, quantityField, stringField, structType, uint32Field, type FieldSchema } from "./config-schema.ts";

const CLAUSE = "doc 3 §2.8";

/** JSONOptions (experimental). */
export const jsonOptionsSchema: FieldSchema = structType(CLAUSE, "JSONOptions: experimental options of the json format.", {
  splitStream: boolField(CLAUSE, "Errors go to stderr and info to stdout, with buffering. Default writes both to stdout unbuffered.", { docRequired: true, default: false }),
  infoBufferSize: { ...quantityField(CLAUSE, "Size of the info stream with split streams. Default 0 disables buffering.", { docRequired: true, default: "0", rule: "doc3/2.8/info-buffer-size" }), format: "non-negative-quantity" },
});

/** FormatOptions. */
export const formatOptionsSchema: FieldSchema = structType(CLAUSE, "FormatOptions: only options of the selected format are used, but all are validated.", {
  json: { ...jsonOptionsSchema, "x-doc-required": true },
});

/** One VModuleConfiguration item: a file pattern and its verbosity. */
export const vmoduleItemSchema: FieldSchema = structType(
  CLAUSE,
  "VModuleItem: per-file verbosity override.",
  {
    filePattern: { ...stringField(CLAUSE, "Base name of a file, glob allowed, without the .go suffix.", { rule: "doc3/2.8/vmodule-pattern" }), minLength: 1 } as FieldSchema,
    verbosity: uint32Field(CLAUSE, "Verbosity threshold for log messages from matching files."),
  },
  ["filePattern", "verbosity"],
);

/** LoggingConfiguration. */
export const loggingConfigurationSchema: FieldSchema = structType(CLAUSE, "LoggingConfiguration: logging options.", {
  format: stringField(CLAUSE, "Log message structure. Default text.", { docRequired: true, default: "text", zeroIsUnset: true, enum: ["text", "json"], rule: "doc3/2.8/logging-format" }),
  flushFrequency: {
    type: ["integer", "string"],
    format: "go-duration-or-nanos",
    "x-go-type": "time.Duration",
    "x-clause": CLAUSE,
    "x-rule": "doc3/2.8/flush-frequency-positive",
    "x-doc-required": true,
    "x-zero-is-unset": true,
    default: 5_000_000_000,
    "x-default-note": "not shown in doc 3; Kubernetes' recommended 5s, as nanoseconds (a time.Duration); a duration string is accepted too",
    description: "Maximum nanoseconds between flushes. Ignored for unbuffered backends.",
  },
  verbosity: uint32Field(CLAUSE, "Threshold. Default 0 logs only the most important messages. Errors are always logged.", { docRequired: true, default: 0 }),
  vmodule: listField(CLAUSE, "Per-file override. Text format only.", vmoduleItemSchema, { docRequired: true }),
  options: { ...formatOptionsSchema, "x-doc-required": true },
});
