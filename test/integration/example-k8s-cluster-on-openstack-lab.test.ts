/**
 * examples/k8s-cluster-openstack as a user runs it: a Pulumi project of its own, pulumi-nfv
 * installed from `npm pack` (test/package/install-packed.ts), its own two packages and request
 * files (the network ids set), on the lab OpenStack: a preview that makes nothing; an up of the
 * registry alone; lab/nodes' images pushed to it, as an operator of an air-gapped site loads them;
 * an up that adds the cluster (the lab's Kubernetes node image, real kubeadm), whose kubeconfig
 * output shows both nodes Ready and every pod's image from the registry; a second up with no
 * change; a destroy that leaves no server of the example.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPacked, packTarball } from "../package/install-packed";
import { openLocalStack, registerPrivateKeyFile, removeTestStack, ROOT, setSecretConfig, until, type LocalStack } from "./harness";
import { imageVersions, kubectlWith, NODE_IMAGE, NODES, pushedImageOf, writePodnetManifest } from "./lab/cluster-lab";
import { labResources, labUp, openstackCli, openstackLabEnabled, type LabFacts } from "./lab/openstack";
import { timer } from "./lab/timings";

const enabled = openstackLabEnabled();
const EXAMPLE = "k8s-cluster-openstack";

let facts!: LabFacts;
let work = "";
let app = "";
let local: LocalStack | undefined;
let stack!: Stack;
let registry = "";
const { timings, timed } = timer();

type Server = { ID: string; Name: string; Status: string; Networks: Record<string, string[]> };
const servers = () => openstackCli<Server[]>(facts, ["server", "list"]).filter((s) => /^(registry|cluster)-/.test(s.Name));
const set = (key: string, value: string) => stack.setConfig(`${EXAMPLE}:${key}`, { value });

/** The example's request file with every external link on the lab network. */
function request(name: string): string {
  const r = JSON.parse(readFileSync(path.join(app, "requests", `${name}.json`), "utf8")) as { extVirtualLinks: { resourceId: string }[] };
  for (const l of r.extVirtualLinks) l.resourceId = labResources(facts)["network.lab-net"];
  const out = path.join(work, `${name}.json`);
  writeFileSync(out, JSON.stringify(r, null, 2));
  return out;
}

describe.skipIf(!enabled)("examples/k8s-cluster-openstack from the packed package, on the lab OpenStack", () => {
  beforeAll(async () => {
    facts = labUp();
    work = mkdtempSync(path.join(tmpdir(), "nfv-example-k8s-"));
    app = path.join(work, EXAMPLE);
    cpSync(path.join(ROOT, "examples", EXAMPLE), app, { recursive: true });
    // The cluster's packages of the site: the node image's, which names its own versions.
    expect(readFileSync(path.join(app, "packages/cluster/Definitions/k8s_cluster.yaml"), "utf8")).toContain(`name: ${NODE_IMAGE}`);
    await timed("images built or found", () => execFileSync(path.join(NODES, "k8s-images"), { stdio: ["ignore", "ignore", "inherit"] }));
    await timed("npm pack and install", async () => installPacked(await packTarball(work), app));
    const key = path.join(work, "id_ed25519");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "example", "-f", key]);
    registerPrivateKeyFile("SSH private key of the example", key);
    local = await openLocalStack({ stackName: "it-example-k8s", workDir: app });
    stack = local.stack;
    await set("vimConfig", facts.vim_config);
    await set("registryRequest", request("registry"));
    // The lab's VMs have Debian's docker-registry, not Docker.
    await set("registryMode", "native");
    await set("sshPublicKey", readFileSync(`${key}.pub`, "utf8").trim());
    await setSecretConfig(stack, `${EXAMPLE}:sshPrivateKey`, readFileSync(key, "utf8"), false);
  }, 900_000);

  afterAll(async () => {
    await removeTestStack(stack);
    local?.dispose();
    if (work) rmSync(work, { recursive: true, force: true });
    console.log(`example ${EXAMPLE} timings (s): ${JSON.stringify(timings)}`);
  }, 900_000);

  it("preview: the registry VNF to create, nothing made", async () => {
    const preview = await timed("preview", () => stack.preview({ color: "never", diff: true }));
    expect(preview.stdout).toContain("nfv:registry:PrivateRegistry");
    expect(preview.stdout).not.toContain("nfv:k8s:Cluster");
    expect(servers()).toEqual([]);
  });

  it("up: the registry VM ACTIVE, its registry answering on the endpoint output", async () => {
    const up = await timed("registry up", () => stack.up({ color: "never" }));
    expect(up.summary.result).toBe("succeeded");
    expect(servers().map((s) => [s.Name, s.Status])).toEqual([["registry-vnf-registry-0", "ACTIVE"]]);
    registry = up.outputs.registry.value as string;
    expect(registry).toMatch(/^\d+\.\d+\.\d+\.\d+:5000$/);
  });

  let kubeconfig = "";
  it("the images pushed to it, then an up that adds the cluster: both nodes Ready, every pod's image from the registry", async () => {
    const pushed = await timed("images pushed", () =>
      execFileSync(path.join(NODES, "push-images"), [registry, "--insecure"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
    );
    const versions = imageVersions();
    await set("clusterRequest", request("cluster"));
    await set("kubernetesVersion", versions.k8s_version.replace(/^v/, ""));
    await set("kubernetesPackageVersion", versions.kubeadm);
    await set("containerdPackageVersion", versions.containerd);
    await set("sandboxImage", pushedImageOf(pushed, registry, "pause"));
    await set("imageRepository", registry);
    await set("cniManifest", writePodnetManifest(work, pushed, registry));
    // The lab's nodes are containers: the host-wide conntrack table is not theirs to size.
    await set("kubeProxyConntrackMaxPerCore", "0");
    const up = await timed("cluster up", () => stack.up({ color: "never" }));
    expect(up.summary.result).toBe("succeeded");
    expect(
      servers()
        .map((s) => [s.Name, s.Status])
        .sort(),
    ).toEqual([
      ["cluster-vnf-masterNode-0", "ACTIVE"],
      ["cluster-vnf-workerNode-0", "ACTIVE"],
      ["registry-vnf-registry-0", "ACTIVE"],
    ]);
    expect(up.outputs.kubernetesVim.value).toMatchObject({ name: "kubernetes_vim_example", type: "kubernetes" });
    kubeconfig = path.join(work, "kubeconfig");
    writeFileSync(kubeconfig, up.outputs.kubeconfig.value as string, { mode: 0o600 });
    await until("both nodes Ready", 300, () => {
      const ready = kubectlWith(
        kubeconfig,
        "get",
        "nodes",
        "-o",
        'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}',
      );
      return ready.trim().split(" ").sort().join(" ") === "cluster-masternode-0=True cluster-workernode-0=True";
    });
    const images = kubectlWith(kubeconfig, "get", "pods", "-A", "-o", "jsonpath={.items[*].spec.containers[*].image}").split(" ").filter(Boolean);
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((i) => !i.startsWith(`${registry}/`))).toEqual([]);
  });

  it("a second up changes nothing", async () => {
    const up = await timed("second up", () => stack.up({ color: "never" }));
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
  });

  it("destroy: no server of the example left", async () => {
    await timed("destroy", () => stack.destroy({ color: "never" }));
    expect(servers()).toEqual([]);
  });
});
