/**
 * A PrivateRegistry on an existing host, for real: a lab host (network namespace with Debian's
 * sshd, lab/hosts/host), the install script run over SSH by `command:remote:Command` (the lab's
 * command provider, see lab/toolchain/README.md), Debian's docker-registry installed in native
 * mode, an OCI image built here pushed and pulled with skopeo, `nfv heal` of the host's VNFC
 * bringing a stopped registry back with its images, and `destroy` + `host down` leaving nothing.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalStack, ROOT, runNfv, type LocalStack } from "./harness";

const HOST = "itreg";
const ADDRESS = "10.254.0.20";
const REGISTRY = `${ADDRESS}:5000`;
const STACK = "it-registry";
const HOSTS = path.join(ROOT, "lab/hosts/host");
const IMAGE = `${REGISTRY}/nfv/hello:1.0`;

let local: LocalStack;
let work = "";
let facts: Record<string, string> = {};

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** A one-layer OCI image layout, made here, so that nothing is fetched from outside. */
function buildOciImage(dir: string): { layerDigest: string } {
  const blobs = path.join(dir, "blobs/sha256");
  mkdirSync(blobs, { recursive: true });
  const content = path.join(work, "content");
  mkdirSync(content, { recursive: true });
  writeFileSync(path.join(content, "hello.txt"), `pulumi-nfv registry test ${Date.now()}\n`);
  const layerTar = path.join(work, "layer.tar");
  execFileSync("tar", ["-cf", layerTar, "-C", content, "hello.txt"]);
  const tar = readFileSync(layerTar);
  const gz = execFileSync("gzip", ["-9nc", layerTar]);
  const blob = (b: Buffer) => {
    const d = sha256(b);
    writeFileSync(path.join(blobs, d), b);
    return { digest: `sha256:${d}`, size: b.length };
  };
  const layer = blob(gz);
  const config = blob(Buffer.from(JSON.stringify({ architecture: "amd64", os: "linux", rootfs: { type: "layers", diff_ids: [`sha256:${sha256(tar)}`] }, config: {} })));
  const manifest = blob(Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: { mediaType: "application/vnd.oci.image.config.v1+json", ...config },
    layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", ...layer }],
  })));
  writeFileSync(path.join(dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  writeFileSync(path.join(dir, "index.json"), JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: "application/vnd.oci.image.manifest.v1+json", ...manifest, annotations: { "org.opencontainers.image.ref.name": "1.0" } }] }));
  return { layerDigest: layer.digest };
}

async function registryAnswers(): Promise<boolean> {
  try {
    return (await fetch(`http://${REGISTRY}/v2/`, { signal: AbortSignal.timeout(3000) })).status === 200;
  } catch {
    return false;
  }
}

/** Pulls the image back into a fresh layout; returns its layer digests. */
function pulledLayers(): string[] {
  const out = path.join(work, `pulled-${Date.now()}`);
  execFileSync("skopeo", ["copy", "--src-tls-verify=false", `docker://${IMAGE}`, `oci:${out}:1.0`], { stdio: "pipe" });
  const index = JSON.parse(readFileSync(path.join(out, "index.json"), "utf8")) as { manifests: { digest: string }[] };
  const manifest = JSON.parse(readFileSync(path.join(out, "blobs/sha256", index.manifests[0].digest.slice(7)), "utf8")) as { layers: { digest: string }[] };
  return manifest.layers.map((l) => l.digest);
}

const netnsPids = () => execFileSync("ip", ["netns", "pids", `nfv-${HOST}`], { encoding: "utf8" }).split("\n").filter(Boolean);
const registryPids = () => netnsPids().filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("/usr/bin/docker-registry"));

describe("a private registry on a lab host, installed over SSH by a real pulumi up", () => {
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "nfv-it-registry-"));
    const out = execFileSync(HOSTS, ["up", HOST, ADDRESS], { encoding: "utf8" });
    facts = Object.fromEntries(out.trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    local = await openLocalStack({ stackName: STACK });
    const set = (key: string, value: string) => local.stack.setConfig(`pulumi-nfv:vnfs.registry.${key}`, { value }, true);
    await set("host.address", ADDRESS);
    await set("host.user", "root");
    await set("host.private_key_file", facts.private_key_file);
    await set("host.host_key_file", `${path.dirname(facts.private_key_file)}/ssh_host_ed25519_key.pub`);
    await set("mode", "native");
    await set("installation_param.port_no", "5000");
  }, 120_000);

  afterAll(async () => {
    await local?.stack.destroy({ color: "never" }).catch(() => undefined);
    await local?.stack.workspace.removeStack(STACK).catch(() => undefined);
    rmSync(path.join(ROOT, `stacks/Pulumi.${STACK}.yaml`), { force: true });
    local?.dispose();
    execFileSync(HOSTS, ["down", HOST], { stdio: "inherit" });
    if (work) rmSync(work, { recursive: true, force: true });
  }, 600_000);

  it("up installs Debian's docker-registry on the host over SSH; it answers on the host's address", async () => {
    const up = await local.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.vnfs.value.registry).toMatchObject({ component: "private-registry", endpoint: REGISTRY, connectionInfo: { connection_type: "0", server: REGISTRY } });
    expect(await registryAnswers()).toBe(true);
    expect(registryPids()).toHaveLength(1);
    // The install ran in the host's own namespaces: its config is in the host's private /etc/docker.
    expect(readFileSync(path.join(path.dirname(facts.private_key_file), "root/etc/docker/registry/config.yml"), "utf8")).toContain("addr: :5000");
  }, 900_000);

  it("the SSH private key is a secret in the state: the lab command provider's outputs keep it encrypted", () => {
    const key = readFileSync(facts.private_key_file, "utf8").split("\n")[1];
    expect(key.length).toBeGreaterThan(40);
    const exported = execFileSync("pulumi", ["stack", "export", "--stack", STACK], { cwd: ROOT, env: local.env, encoding: "utf8" });
    expect(exported.includes(key)).toBe(false);
    const resources = (JSON.parse(exported) as { deployment: { resources: { type: string; outputs?: { connection?: unknown } }[] } }).deployment.resources;
    const commands = resources.filter((r) => r.type.startsWith("command:remote:"));
    expect(commands.length).toBeGreaterThan(3);
    // The connection holds the key: the engine stores it encrypted (the whole connection, or the key in it).
    for (const c of commands) expect(JSON.stringify(c.outputs?.connection)).toContain("ciphertext");
  });

  let pushed = "";
  it("an OCI image built here is pushed with skopeo and pulled back unchanged", () => {
    const layout = path.join(work, "image");
    pushed = buildOciImage(layout).layerDigest;
    execFileSync("skopeo", ["copy", "--dest-tls-verify=false", `oci:${layout}:1.0`, `docker://${IMAGE}`], { stdio: "pipe" });
    expect(pulledLayers()).toEqual([pushed]);
  }, 120_000);

  it("a second up changes nothing", async () => {
    const up = await local.stack.up({ color: "never" });
    expect(Object.entries(up.summary.resourceChanges ?? {}).filter(([op, n]) => op !== "same" && (n ?? 0) > 0)).toEqual([]);
  }, 300_000);

  it("nfv heal of the host's VNFC: only the heal_end install runs; a stopped registry serves the image again", async () => {
    for (const pid of registryPids()) process.kill(Number(pid), "SIGKILL");
    await new Promise((r) => setTimeout(r, 500));
    expect(await registryAnswers()).toBe(false);
    const r = await runNfv(local.env, ["heal", "--stack", STACK, "--vnf", "registry", "--vnfc", "host"]);
    expect(r.code, r.out).toBe(0);
    const [last] = await local.stack.history(1);
    expect(last.resourceChanges).toEqual({ create: 1, same: expect.any(Number) });
    const state = (await local.stack.exportStack()).deployment as { resources: { urn: string }[] };
    expect(state.resources.filter((res) => res.urn.endsWith("::registry-host-heal_end"))).toHaveLength(1);
    expect(await registryAnswers()).toBe(true);
    expect(pulledLayers()).toEqual([pushed]);
  }, 600_000);

  it("destroy stops the registry; host down leaves no process, namespace or file", async () => {
    await local.stack.destroy({ color: "never" });
    expect((await local.stack.exportStack()).deployment.resources ?? []).toEqual([]);
    expect(registryPids()).toEqual([]);
    execFileSync(HOSTS, ["down", HOST], { stdio: "pipe" });
    expect(execFileSync("ip", ["netns", "list"], { encoding: "utf8" })).not.toContain(`nfv-${HOST}`);
    expect(existsSync(path.dirname(facts.private_key_file))).toBe(false);
    const anywhere = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n").filter((l) => l.startsWith("/usr/bin/docker-registry"));
    expect(anywhere).toEqual([]);
  }, 600_000);
});
