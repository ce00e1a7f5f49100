/**
 * An example of examples/ as a user runs it on the lab OpenStack: copied to a scratch directory,
 * pulumi-nfv installed from `npm pack` (test/package/install-packed.ts), a stack of its own on a
 * file backend, the lab's VIM and a fresh SSH key pair in its config (`vimConfig`, `sshPublicKey`,
 * the secret `sshPrivateKey`: the keys the OpenStack examples share).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { installPacked, packTarball } from "../../package/install-packed";
import { openLocalStack, registerPrivateKeyFile, removeTestStack, ROOT, setSecretConfig, type LocalStack } from "../harness";
import type { LabFacts } from "./openstack";

export interface ExampleProject {
  /** The scratch directory (the packed package, the key pair, files the test writes). */
  work: string;
  /** The example's copy, where its program runs. */
  app: string;
  stack: Stack;
  /** A plain config value of the example's project. */
  set(key: string, value: string): Promise<void>;
  /** The stack destroyed and removed, the scratch directory gone. */
  close(): Promise<void>;
}

/** examples/`name` installed and its stack `stackName` opened, configured for the lab. */
export async function openExampleProject(
  name: string,
  stackName: string,
  facts: LabFacts,
  timed: <T>(label: string, f: () => Promise<T> | T) => Promise<T>,
): Promise<ExampleProject> {
  const work = mkdtempSync(path.join(tmpdir(), "nfv-example-"));
  let local: LocalStack | undefined;
  try {
    const app = path.join(work, name);
    cpSync(path.join(ROOT, "examples", name), app, { recursive: true });
    await timed("npm pack and install", async () => installPacked(await packTarball(work), app));
    const key = path.join(work, "id_ed25519");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "example", "-f", key]);
    registerPrivateKeyFile("SSH private key of the example", key);
    local = await openLocalStack({ stackName, workDir: app });
    const stack = local.stack;
    const set = (k: string, value: string) => stack.setConfig(`${name}:${k}`, { value });
    await set("vimConfig", facts.vim_config);
    await set("sshPublicKey", readFileSync(`${key}.pub`, "utf8").trim());
    await setSecretConfig(stack, `${name}:sshPrivateKey`, readFileSync(key, "utf8"), false);
    const opened = local;
    return {
      work,
      app,
      stack,
      set,
      async close() {
        await removeTestStack(stack);
        opened.dispose();
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (e) {
    local?.dispose();
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}
