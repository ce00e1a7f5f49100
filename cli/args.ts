/**
 * Command-line arguments through Node's own `util.parseArgs` (strict: an unknown option is an
 * error), in the shape the commands read, with its errors as `UsageError`s (exit 2).
 */
import { parseArgs as parseNodeArgs } from "node:util";

export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  /** Boolean options that were given (`--diff`). */
  flags: Set<string>;
  /** Options that may be given several times (`--vnfc a --vnfc b`), in order. */
  lists: Map<string, string[]>;
}

/**
 * `valued` lists the options that take a value (`--name value`, `--name=value`; an empty value is
 * refused), `flagNames` those that take none, `repeatable` valued options that may come several
 * times; any other option is a usage error. After `--` everything is a positional.
 */
export function parseArgs(args: string[], valued: readonly string[], flagNames: readonly string[] = [], repeatable: readonly string[] = []): ParsedArgs {
  const options = Object.fromEntries([
    ...valued.map((n) => [n, { type: "string" as const }]),
    ...flagNames.map((n) => [n, { type: "boolean" as const }]),
    ...repeatable.map((n) => [n, { type: "string" as const, multiple: true }]),
  ]);
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(usageMessage(e as NodeJS.ErrnoException));
  }
  const out: ParsedArgs = { positionals: parsed.positionals, options: new Map(), flags: new Set(), lists: new Map() };
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === "boolean") out.flags.add(name);
    else if (value === "" || (Array.isArray(value) && value.includes(""))) throw new UsageError(`--${name} needs a value`);
    else if (typeof value === "string") out.options.set(name, value);
    else if (Array.isArray(value))
      out.lists.set(
        name,
        value.filter((v) => typeof v === "string"),
      );
  }
  return out;
}

/** Node's messages name the option in quotes and explain at length; ours name it and stop. */
function usageMessage(e: NodeJS.ErrnoException): string {
  const option = /'(-[^' ]+)/.exec(e.message)?.[1] ?? "";
  switch (e.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take an argument/.test(e.message) ? `${option} takes no value` : `${option} needs a value`;
    default:
      return e.message;
  }
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, option: string): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${option} must be one of ${allowed.join(", ")}`);
  return value as T;
}
