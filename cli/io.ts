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
