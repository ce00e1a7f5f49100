/**
 * A credential step that fails after printing, through the real engine and the real
 * `@pulumi/command` provider (1.2.1, `command:local:Command` on this machine: no lab, no SSH):
 * mgmt/k8s/join-credentials.sh as K8sCluster runs it (`scriptStep`: the line wrapped by
 * stdoutOnSuccess, `logging: stderr`, stdout a secret output), with a kubeadm stand-in whose
 * `kubeadm init phase upload-certs` fails after the script printed `token=` and the CA hash. The
 * engine's error must show the step's stderr and neither `token=`, the token nor the hash; the
 * same script without the wrapper, for contrast, does leak the token into the error (what the
 * provider did before). A step that succeeds hands its stdout over as a secret only. The canary
 * scan of this file (lab/canary-watch.ts) then finds the registered token, hash and certificate key
 * nowhere: not in the event log, the state, the outputs, the logs or any process's command line.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as command from "@pulumi/command";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptStep, SCRIPTS_DIR } from "../../components/k8s-cluster/node-commands";
import { redactSdkDebugLog } from "../../components/sdk-debug-log";
import { registerSecret, ROOT, toolchainEnv } from "./harness";

let work = "";
let env: Record<string, string> = {};
let pulumiCommand: PulumiCommand;
const stacks: Stack[] = [];

/** Random values of kubeadm's own formats: a bootstrap token (6.16) and a certificate key (64 hex). */
const token = () => `${rand(6)}.${rand(16)}`;
function rand(n: number): string {
  const out = [...Array(n)].map(() => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(Math.random() * 36)]).join("");
  return out;
}
const hex64 = () => [...Array(64)].map(() => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");

/**
 * A PATH directory with the stand-ins (kubeadm, and sudo that runs its command as this user) and a
 * node root with the cluster CA; the token and key the stand-in prints are in files next to it,
 * never in the Command's inputs (its `environment` is stored in plain text).
 */
function node(name: string, opts: { token: string; certificateKey: string; ca: string; uploadFails: boolean }): { bin: string; root: string; caHash: string } {
  const dir = path.join(work, name);
  const bin = path.join(dir, "bin");
  const root = path.join(dir, "root");
  mkdirSync(bin, { recursive: true });
  mkdirSync(path.join(root, "etc/kubernetes/pki"), { recursive: true });
  copyFileSync(opts.ca, path.join(root, "etc/kubernetes/pki/ca.crt"));
  writeFileSync(path.join(dir, "token"), `${opts.token}\n`, { mode: 0o600 });
  writeFileSync(path.join(dir, "certificate-key"), `${opts.certificateKey}\n`, { mode: 0o600 });
  const stub = (file: string, text: string) => {
    writeFileSync(path.join(bin, file), text);
    chmodSync(path.join(bin, file), 0o755);
  };
  stub("sudo", `#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n`);
  stub(
    "kubeadm",
    [
      "#!/bin/bash",
      `d=${JSON.stringify(dir)}`,
      'case "$1 ${2:-} ${3:-}" in',
      '  "token create"*) cat "$d/token" ;;',
      '  "certs certificate-key"*) cat "$d/certificate-key" ;;',
      opts.uploadFails
        ? '  "init phase upload-certs") echo "error execution phase upload-certs: error uploading certs: etcdserver: request timed out" >&2; exit 1 ;;'
        : '  "init phase upload-certs") echo "[upload-certs] Storing the certificates in Secret kubeadm-certs" >&2 ;;',
      "  *) exit 0 ;;",
      "esac",
      "",
    ].join("\n"),
  );
  const caHash = `sha256:${execFileSync("bash", ["-c", `openssl x509 -pubkey -noout -in ${JSON.stringify(opts.ca)} | openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1`], { encoding: "utf8" }).trim()}`;
  return { bin, root, caHash };
}

/** `pulumi up` of one local.Command running join-credentials.sh as `line`; the engine's error, if any. */
async function deploy(
  stackName: string,
  line: string,
  shape: ReturnType<typeof scriptStep>,
  n: { bin: string; root: string },
): Promise<{ error?: string; stack: Stack }> {
  const program = async () => {
    // As stacks/index.ts does first: the SDK's debug messages would carry the step's stdout into the event log.
    redactSdkDebugLog();
    const c = new command.local.Command(
      "join-credentials",
      {
        create: line,
        stdin: pulumi.secret("ROLE=master\nKUBERNETES_VERSION=1.30.14\nKUBEADM_API_VERSION=kubeadm.k8s.io/v1beta3\n"),
        environment: { PATH: `${n.bin}:/usr/local/bin:/usr/bin:/bin`, NFV_ROOT: n.root },
        addPreviousOutputInEnv: false,
        ...(shape.logging ? { logging: shape.logging } : {}),
      },
      shape.additionalSecretOutputs ? { additionalSecretOutputs: shape.additionalSecretOutputs } : {},
    );
    return { stdout: c.stdout };
  };
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, projectName: "nfv-credential-step", program },
    {
      envVars: env,
      pulumiCommand,
      workDir: work,
      projectSettings: { name: "nfv-credential-step", runtime: "nodejs" },
    },
  );
  stacks.push(stack);
  try {
    await stack.up({ color: "never" });
    return { stack };
  } catch (e) {
    return { error: (e as Error).message, stack };
  }
}

describe("a credential step that fails after printing, through the real command provider", () => {
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "nfv-it-creds-"));
    env = { ...toolchainEnv(), PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`, PULUMI_CONFIG_PASSPHRASE: "pulumi-nfv-credential-step" };
    mkdirSync(path.join(work, "state"));
    delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
    pulumiCommand = await PulumiCommand.get({
      root: path.dirname(path.dirname(execFileSync("bash", ["-c", "command -v pulumi"], { env, encoding: "utf8" }).trim())),
    });
  }, 120_000);

  afterAll(async () => {
    for (const s of stacks) {
      await s.destroy({ color: "never" }).catch(() => undefined);
      await s.workspace.removeStack(s.name).catch(() => undefined);
    }
    if (work) rmSync(work, { recursive: true, force: true });
  }, 300_000);

  it("as K8sCluster runs it: the error shows the step's stderr, not `token=`, the token or the CA hash", async () => {
    const t = token();
    const key = hex64();
    const n = node("wrapped", { token: t, certificateKey: key, ca: path.join(ROOT, "test/fixtures/pki/ca-a.crt"), uploadFails: true });
    // Looked for everywhere by this file's canary scan, as well as here.
    registerSecret("join token (failed step)", t);
    registerSecret("CA cert hash (failed step)", n.caHash);
    registerSecret("certificate key (failed step)", key);
    const shape = scriptStep("join-credentials.sh", true, SCRIPTS_DIR);
    expect(shape.line).toBe(`out="$(sudo -n /bin/bash ${SCRIPTS_DIR}/join-credentials.sh)" && printf '%s\\n' "$out"`);
    const { error } = await deploy("it-creds-failed", shape.line, shape, n);
    expect(error, "the step fails").toBeDefined();
    expect(error).toContain("error uploading certs: etcdserver: request timed out");
    expect(error).not.toContain("token=");
    expect(error).not.toContain(t);
    expect(error).not.toContain(n.caHash);
    expect(error).not.toContain("ca_cert_hash");
  });

  it("for contrast, the same script without the wrapper: the provider's error carries the token (the row of issue 19)", async () => {
    const t = token();
    const n = node("bare", { token: t, certificateKey: hex64(), ca: path.join(ROOT, "test/fixtures/pki/ca-b.crt"), uploadFails: true });
    const bare = scriptStep("join-credentials.sh", false, SCRIPTS_DIR);
    // logging and secret outputs as for a credential step: only the line differs.
    const { error } = await deploy("it-creds-bare", bare.line, { ...scriptStep("join-credentials.sh", true, SCRIPTS_DIR), line: bare.line }, n);
    expect(error).toBeDefined();
    expect(error).toContain(`token=${t}`);
  });

  it("a step that succeeds: its stdout is the Command's output, a secret, with the token and hash", async () => {
    const t = token();
    const key = hex64();
    const n = node("succeeds", { token: t, certificateKey: key, ca: path.join(ROOT, "test/fixtures/pki/ca-a.crt"), uploadFails: false });
    registerSecret("join token (step that succeeds)", t);
    registerSecret("certificate key (step that succeeds)", key);
    const shape = scriptStep("join-credentials.sh", true, SCRIPTS_DIR);
    const { error, stack } = await deploy("it-creds-ok", shape.line, shape, n);
    expect(error).toBeUndefined();
    const outputs = await stack.outputs();
    expect(outputs.stdout.secret).toBe(true);
    // The provider keeps stdout without its last line break.
    expect(outputs.stdout.value).toBe(`token=${t}\nca_cert_hash=${n.caHash}\ncertificate_key=${key}`);
  });
});
