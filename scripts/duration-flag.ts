/** Flags that take a Go duration (`60s`, `5m`, `1500ms`), as Kubernetes' daemons take them. */
import { GoDurationError, goDurationToMs, parseGoDuration } from "../sim/config/go-duration.ts";
import { UsageError } from "./cli-command.ts";

/** `text`, the value of `--name`, in milliseconds; unparsable, negative or (unless allowed) zero is a usage error. */
export function durationFlagMs(text: string, name: string, zeroAllowed = false): number {
  let ms: number;
  try {
    ms = goDurationToMs(parseGoDuration(text));
  } catch (error) {
    if (error instanceof GoDurationError) throw new UsageError(`--${name}: ${error.message} (e.g. 60s, 5m, 1500ms)`);
    throw error;
  }
  if (ms < 0 || (ms === 0 && !zeroAllowed)) throw new UsageError(`--${name} must be positive, got ${text}`);
  return ms;
}
