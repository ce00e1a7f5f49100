#!/usr/bin/env node
/** `nfv`: command-line entry. Dispatches to a subcommand; see `commands.ts`. */
import { COMMANDS } from "./commands";
import { UsageError } from "./args";
import { StackUnavailable } from "../ops/pulumi-stack";
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, processIo, pulumiCommandProblem, UserError, type Io } from "./io";
import { holdOperationTmp, releaseOperationTmp } from "./operation-tmp";

export function usage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return (
    [
      "usage: nfv <command> [options]",
      "",
      "commands:",
      ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`),
      "",
      "Run `nfv <command> --help` for its options.",
    ].join("\n") + "\n"
  );
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(usage());
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.err(`nfv: unknown command \`${name}\`\n\n${usage()}`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(command.usage);
    return EXIT_OK;
  }
  holdOperationTmp();
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`nfv ${name}: ${e.message}\n\n${command.usage}`);
      return EXIT_USAGE;
    }
    // What the user can act on is one line and exit 1; only a bug is an internal error (70).
    const problem = e instanceof UserError || e instanceof StackUnavailable ? e.message : pulumiCommandProblem(e);
    if (problem !== undefined) {
      io.err(`nfv ${name}: ${problem}\n`);
      return EXIT_PROBLEMS;
    }
    throw e;
  } finally {
    releaseOperationTmp();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`nfv: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 70;
    },
  );
}
