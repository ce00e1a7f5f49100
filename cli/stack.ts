/** Opening a stack of this project for the operations commands (preview, heal, scale). */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { UsageError } from "./args";
import { pulumiCommandProblem, UserError } from "./io";
import { parallelismEnv } from "./engine-parallelism";
import { operationTmpDir, pulumiTmpEnv } from "./operation-tmp";

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
 * Selects an existing stack; the CLI, backend and secrets come from the environment, TMPDIR is the
 * command's private directory, ts-node's cache kept outside it (operation-tmp.ts), the engine's
 * parallelism nfv's (engine-parallelism.ts). A stack that cannot be opened is a UserError.
 */
export async function openStack(stackName: string, cwd = process.cwd()): Promise<Stack> {
  const workDir = projectDir(cwd);
  try {
    return await LocalWorkspace.selectStack({ stackName, workDir }, { envVars: { ...pulumiTmpEnv(operationTmpDir()), ...parallelismEnv() } });
  } catch (e) {
    if ((e as Error).name === "StackNotFoundError")
      throw new UserError(`stack '${stackName}' does not exist (\`pulumi stack ls\` lists this project's stacks)`);
    const problem = pulumiCommandProblem(e);
    if (problem) throw new UserError(`cannot open stack '${stackName}': ${problem}`);
    throw e;
  }
}
