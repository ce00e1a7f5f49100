/**
 * `nfv preview --stack S [--diff] [--out FILE] [--cwd DIR]`: `pulumi preview`, its engine events
 * summarised as PR-comment-ready Markdown (counts, then each change with its
 * changed properties; values are never printed, so secrets cannot leak into a comment).
 */
import { statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs, UsageError } from "../args";
import { EXIT_OK, EXIT_PROBLEMS, UserError, type Command } from "../io";
import { collectChanges, renderPreviewMarkdown } from "../preview/summary";
import { PulumiCommandError } from "../../ops/pulumi-stack";
import { openStack } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv preview --stack S [--diff] [--out FILE] [--cwd DIR]",
      "",
      "  --stack   the stack to preview (e.g. local, dev, prod)",
      "  --diff    name every changed property path (as `pulumi preview --diff`), not only top-level names",
      "  --out     write the Markdown summary to FILE instead of standard output",
      "  --cwd     the project directory (default: the nearest directory above with a Pulumi.yaml)",
      "",
      "Needs the pulumi CLI on PATH (`. lab/toolchain/env.sh`). Exit status: 0 preview ran, 1 it failed, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["stack", "out", "cwd"], ["diff"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    if (!stackName) throw new UsageError("--stack is required");
    const out = options.get("out");
    // Checked first: a preview can take minutes, and its summary must not be lost at the end.
    if (out !== undefined) checkOutDir(out);
    const stack = openStack(stackName, options.get("cwd"));
    const events: Parameters<typeof collectChanges>[0] = [];
    try {
      await stack.preview({ diff: flags.has("diff"), onEvent: (e) => events.push(e) });
    } catch (e) {
      if (!(e instanceof PulumiCommandError)) throw e; // no CLI, no such stack: one line (cli/nfv.ts); else a bug
      io.err(`nfv preview: preview of stack '${stackName}' failed:\n${(e as Error).message}\n`);
      return EXIT_PROBLEMS;
    }
    const markdown = renderPreviewMarkdown(stackName, collectChanges(events, { detailed: flags.has("diff") }));
    if (out) {
      try {
        writeFileSync(path.resolve(out), markdown);
      } catch (e) {
        io.out(markdown);
        io.err(`nfv preview: cannot write --out ${out} (${(e as NodeJS.ErrnoException).code ?? "error"}); the summary is on standard output\n`);
        return EXIT_PROBLEMS;
      }
      io.out(`wrote ${out}\n`);
    } else {
      io.out(markdown);
    }
    return EXIT_OK;
  },
};

function checkOutDir(out: string): void {
  const dir = path.dirname(path.resolve(out));
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new UserError(`--out ${out}: the directory ${dir} does not exist`);
}
