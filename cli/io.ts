/** Where a command writes; tests pass buffers instead of the process streams. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Exit codes shared by every subcommand. */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** A subcommand module exports one of these as `command`. */
export interface Command {
  usage: string;
  run(args: string[], io: Io): Promise<number>;
}

/** A failure the user can act on (a missing tool, an unknown stack, a bad path): one line, exit 1, no stack trace. */
export class UserError extends Error {}

/**
 * One line for a failed pulumi CLI run (ops/pulumi-stack.ts: its PulumiCommandError carries the
 * whole transcript): the first `error:` line of its stderr, else its first line. Undefined for any
 * other error.
 */
export function pulumiCommandProblem(e: unknown): string | undefined {
  const result = (e as { commandResult?: { stderr?: unknown } } | undefined)?.commandResult;
  if (!(e instanceof Error) || !result || typeof result.stderr !== "string") return undefined;
  const lines = result.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => l.startsWith("error:"))?.replace(/^error:\s*/, "") ?? lines[0] ?? `${e.name} without a message`;
}
