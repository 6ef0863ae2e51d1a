/**
 * The string formats of doc 3's schemas (spec/doc3/config-schema.ts), checked. A verdict says
 * whether the value is not of its Go type at all ("type": the field cannot be decoded) or decodes
 * but breaks the node's rule ("value").
 */
import type { GoType } from "../../spec/doc3/config-schema.ts";
import { parseCpuList } from "./cpuset.ts";
import { GoDurationError, parseGoDuration } from "./go-duration.ts";
import { imagePatternError } from "./image-matching.ts";
import { isIpAddress, parseCidr } from "./network-syntax.ts";
import { parsePercentage, parseQuantity, QuantityError, quantitySign } from "./quantity.ts";

/** What is wrong with a formatted value: undefined when nothing is. */
export type FormatVerdict = { readonly kind: "type" | "value"; readonly message: string } | undefined;

type FormatCheck = (value: unknown, goType: GoType | undefined) => FormatVerdict;

const typeOrValue = (goType: GoType | undefined, own: GoType) => (goType === own ? "type" : "value");

function duration(value: unknown): bigint | string {
  if (typeof value !== "string") return "not a duration string";
  try {
    return parseGoDuration(value);
  } catch (error) {
    if (error instanceof GoDurationError) return error.message;
    throw error;
  }
}

function quantity(value: unknown): ReturnType<typeof parseQuantity> | string {
  if (typeof value !== "string") return "not a quantity string";
  try {
    return parseQuantity(value);
  } catch (error) {
    if (error instanceof QuantityError) return error.message;
    throw error;
  }
}

function percentageOrQuantity(value: unknown, allowZero: boolean): FormatVerdict {
  if (typeof value !== "string") return { kind: "value", message: "not a string" };
  const percentage = parsePercentage(value);
  if (percentage !== undefined) {
    return percentage < 0 || percentage > 1 ? { kind: "value", message: "a percentage must be between 0% and 100%" } : undefined;
  }
  const parsed = quantity(value);
  if (typeof parsed === "string") return { kind: "value", message: `neither a percentage nor a quantity: ${parsed}` };
  const sign = quantitySign(parsed);
  if (sign < 0 || (sign === 0 && !allowZero)) return { kind: "value", message: allowZero ? "must not be negative" : "must be positive" };
  return undefined;
}

/** Every format of doc 3's schemas, by name. */
export const formatChecks: Readonly<Record<string, FormatCheck>> = {
  "go-duration": (value) => {
    const parsed = duration(value);
    return typeof parsed === "string" ? { kind: "type", message: parsed } : undefined;
  },
  "non-negative-go-duration": (value, goType) => {
    const parsed = duration(value);
    if (typeof parsed === "string") return { kind: typeOrValue(goType, "Duration"), message: parsed };
    return parsed < 0n ? { kind: "value", message: "must not be negative" } : undefined;
  },
  "go-duration-or-nanos": (value) => {
    if (typeof value === "number") return value <= 0 ? { kind: "value", message: "must be greater than zero" } : undefined;
    const parsed = duration(value);
    if (typeof parsed === "string") return { kind: "type", message: parsed };
    return parsed <= 0n ? { kind: "value", message: "must be greater than zero" } : undefined;
  },
  quantity: (value) => {
    const parsed = quantity(value);
    return typeof parsed === "string" ? { kind: "type", message: parsed } : undefined;
  },
  "non-negative-quantity": (value, goType) => {
    const parsed = quantity(value);
    if (typeof parsed === "string") return { kind: typeOrValue(goType, "Quantity"), message: parsed };
    return quantitySign(parsed) < 0 ? { kind: "value", message: "must not be negative" } : undefined;
  },
  ip: (value) => (typeof value === "string" && isIpAddress(value) ? undefined : { kind: "value", message: "not an IP address" }),
  "cidr-or-empty": (value) => (value === "" || (typeof value === "string" && parseCidr(value) !== undefined) ? undefined : { kind: "value", message: "not a CIDR" }),
  cpuset: (value) => {
    if (typeof value !== "string") return { kind: "value", message: "not a CPU list" };
    const parsed = parseCpuList(value);
    return "error" in parsed ? { kind: "value", message: parsed.error } : undefined;
  },
  percentage: (value) => {
    const parsed = typeof value === "string" ? parsePercentage(value) : undefined;
    if (parsed === undefined) return { kind: "value", message: "not a percentage such as 50%" };
    return parsed < 0 || parsed > 1 ? { kind: "value", message: "must be between 0% and 100%" } : undefined;
  },
  "eviction-threshold": (value) => percentageOrQuantity(value, false),
  "eviction-reclaim": (value) => percentageOrQuantity(value, true),
  "image-pattern": (value) => {
    const message = typeof value === "string" ? imagePatternError(value) : "not a string";
    return message === undefined ? undefined : { kind: "value", message: `match image is invalid: ${message}` };
  },
};
