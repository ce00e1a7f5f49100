/** Opening a stack of this project for the operations commands (preview, heal, scale, …). */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { UsageError } from "./args";
import { operationTmpDir } from "./operation-tmp";
import { PulumiStack } from "../ops/pulumi-stack";
import { pulumiEnv } from "./pulumi-env";

/** The nearest directory at or above `start` that holds a Pulumi.yaml. */
export function projectDir(start: string): string {
  let dir = path.resolve(start);
  while (!existsSync(path.join(dir, "Pulumi.yaml"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new UsageError(`no Pulumi.yaml at or above ${start}; pass --cwd`);
    dir = parent;
  }
  return dir;
}

/**
 * The stack `stackName` of the project at or above `cwd`; the CLI, backend and secrets come from
 * the environment, with nfv's own for its pulumi processes (pulumi-env.ts: the command's private
 * TMPDIR, the engine's parallelism). Nothing runs yet: a stack that does not exist is a StackUnavailable
 * of the first CLI call (ops/pulumi-stack.ts).
 */
export function openStack(stackName: string, cwd = process.cwd()): PulumiStack {
  const tmpDir = operationTmpDir();
  return new PulumiStack(stackName, projectDir(cwd), pulumiEnv(tmpDir), tmpDir);
}
