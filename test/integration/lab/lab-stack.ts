/**
 * A stack of this project on the lab OpenStack, for the integration files that deploy VM VNFs
 * there: the lab up (or found up), a scratch directory with an SSH key pair, the VIM `lab` from the
 * lab's vim-config.yaml. `close()` destroys the stack and removes all it made: the stack, its
 * `stacks/Pulumi.<name>.yaml` and the scratch directory.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { openLocalStack, registerPrivateKeyFile, removeTestStack, type LocalStack } from "../harness";
import { labUp, type LabFacts } from "./openstack";

export interface LabStack {
  facts: LabFacts;
  /** Scratch directory; holds the key pair `id_ed25519` / `id_ed25519.pub`. */
  work: string;
  local: LocalStack;
  stack: Stack;
  /** Sets `pulumi-nfv:<key>` (a path: `vnfs.hw.vim`). */
  set(key: string, value: string): Promise<void>;
  /** `vnfs.<vnf>.ssh`: `user` logs in with the scratch key, whose public half becomes the VNF's Nova key pair. */
  setSsh(vnf: string, user: string, cp?: string): Promise<void>;
  close(): Promise<void>;
}

export async function openLabStack(name: string, opts: { magnum?: boolean } = {}): Promise<LabStack> {
  const work = mkdtempSync(path.join(tmpdir(), `nfv-${name}-`));
  const facts = labUp(opts);
  const key = path.join(work, "id_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key]);
  registerPrivateKeyFile(`SSH private key of ${name}`, key);
  const local = await openLocalStack({ stackName: name });
  const stack = local.stack;
  const set = async (k: string, value: string) => {
    await stack.setConfig(`pulumi-nfv:${k}`, { value }, true);
  };
  await set("vims.lab.file", facts.vim_config);
  return {
    facts,
    work,
    local,
    stack,
    set,
    async setSsh(vnf, user, cp) {
      if (cp) await set(`vnfs.${vnf}.ssh.cp`, cp);
      await set(`vnfs.${vnf}.ssh.user`, user);
      await set(`vnfs.${vnf}.ssh.private_key_file`, key);
      await set(`vnfs.${vnf}.ssh.public_key_file`, `${key}.pub`);
    },
    async close() {
      await removeTestStack(stack);
      local.dispose();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
