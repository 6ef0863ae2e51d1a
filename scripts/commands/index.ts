/** Every command of the CLI, in the order `--help` lists them. */
import type { CliCommand } from "../cli-command.ts";
import { conformanceCommand } from "./conformance.ts";
import { fuzzCommand } from "./fuzz.ts";
import { serveCommand } from "./serve.ts";

/** The registered commands. */
export const commands: readonly CliCommand[] = [conformanceCommand, serveCommand, fuzzCommand];
