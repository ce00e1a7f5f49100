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
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, until } from "./harness";
import { imageVersions, kubectlWith, NODE_IMAGE, NODES, pushedImageOf, writePodnetManifest } from "./lab/cluster-lab";
import { openExampleProject, type ExampleProject } from "./lab/example-project";
import { labResources, labUp, openstackCli, openstackLabEnabled, type LabFacts } from "./lab/openstack";
import { timer } from "./lab/timings";

const enabled = openstackLabEnabled();
const EXAMPLE = "k8s-cluster-openstack";

let facts!: LabFacts;
let example: ExampleProject | undefined;
let registry = "";
const { timings, timed } = timer();

type Server = { ID: string; Name: string; Status: string; Networks: Record<string, string[]> };
const servers = () => openstackCli<Server[]>(facts, ["server", "list"]).filter((s) => /^(registry|cluster)-/.test(s.Name));

/** The example's request file with every external link on the lab network. */
function request(name: string): string {
  const r = JSON.parse(readFileSync(path.join(example!.app, "requests", `${name}.json`), "utf8")) as { extVirtualLinks: { resourceId: string }[] };
  for (const l of r.extVirtualLinks) l.resourceId = labResources(facts)["network.lab-net"];
  const out = path.join(example!.work, `${name}.json`);
  writeFileSync(out, JSON.stringify(r, null, 2));
  return out;
}

describe.skipIf(!enabled)("examples/k8s-cluster-openstack from the packed package, on the lab OpenStack", () => {
  let stack!: Stack;
  let set!: ExampleProject["set"];
  beforeAll(async () => {
    facts = labUp();
    // The cluster's package names the site's node image, which names its own versions.
    expect(readFileSync(path.join(ROOT, "examples", EXAMPLE, "packages/cluster/Definitions/k8s_cluster.yaml"), "utf8")).toContain(`name: ${NODE_IMAGE}`);
    await timed("images built or found", () => execFileSync(path.join(NODES, "k8s-images"), { stdio: ["ignore", "ignore", "inherit"] }));
    example = await openExampleProject(EXAMPLE, "it-example-k8s", facts, timed);
    ({ stack, set } = example);
    await set("registryRequest", request("registry"));
    // The lab's VMs have Debian's docker-registry, not Docker.
    await set("registryMode", "native");
  }, 900_000);

  afterAll(async () => {
    await example?.close();
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
    await set("cniManifest", writePodnetManifest(example!.work, pushed, registry));
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
    kubeconfig = path.join(example!.work, "kubeconfig");
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
