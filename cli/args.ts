/** A small argument parser: `--name value`, `--name=value`, and positionals. */
export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  /** Boolean options that were given (`--diff`). */
  flags: Set<string>;
}

/**
 * `valued` lists the options that take a value, `flags` those that take none; any other `--x`
 * is a usage error.
 */
export function parseArgs(args: string[], valued: readonly string[], flagNames: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--") || a === "--") {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (flagNames.includes(name) && eq < 0) {
      flags.add(name);
      continue;
    }
    if (!valued.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq < 0 ? args[++i] : a.slice(eq + 1);
    if (value === undefined || value === "") throw new UsageError(`--${name} needs a value`);
    options.set(name, value);
  }
  return { positionals, options, flags };
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, option: string): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${option} must be one of ${allowed.join(", ")}`);
  return value as T;
}
