import { Command, CommanderError, InvalidArgumentError } from "commander";
import { ConfigError } from "../config-error.js";
import { registerDevCommand } from "./dev-command.js";
import { registerDataCommands } from "./data-commands.js";
import { registerServeCommand } from "./serve-command.js";
import { registerTokenCommand } from "./token-command.js";

/**
 * `cpb`: the service's commands (CONVENTIONS.md, Commands). Wiring only; each
 * command lives in its own file. Exit status: 0 done, 1 failed, 2 bad usage or
 * configuration.
 */
const program = new Command("cpb")
  .description("Commercial Policy Benchmark service")
  .showHelpAfterError()
  .exitOverride();

registerDevCommand(program);
registerServeCommand(program);
registerDataCommands(program);
registerTokenCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof ConfigError || error instanceof InvalidArgumentError) {
    console.error(`cpb: ${error.message}`);
    process.exit(2);
  }
  console.error(`cpb: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
