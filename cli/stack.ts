/** Opening a stack of this project for the operations commands (preview, heal, scale). */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { UsageError } from "./args";
import { pulumiCommandProblem, UserError } from "./io";
import { operationTmpDir } from "./operation-tmp";
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
 * Selects an existing stack; the CLI, backend and secrets come from the environment, with nfv's
 * own for its pulumi processes (pulumi-env.ts: the command's private TMPDIR, the engine's
 * parallelism). A stack that cannot be opened is a UserError.
 */
export async function openStack(stackName: string, cwd = process.cwd()): Promise<Stack> {
  const workDir = projectDir(cwd);
  try {
    return await LocalWorkspace.selectStack({ stackName, workDir }, { envVars: pulumiEnv(operationTmpDir()) });
  } catch (e) {
    if ((e as Error).name === "StackNotFoundError")
      throw new UserError(`stack '${stackName}' does not exist (\`pulumi stack ls\` lists this project's stacks)`);
    const problem = pulumiCommandProblem(e);
    if (problem) throw new UserError(`cannot open stack '${stackName}': ${problem}`);
    throw e;
  }
}
