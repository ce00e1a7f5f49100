import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { installMocks, settle, type Registered } from "../helpers/pulumi-mocks";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";
import { OS_VIM, RENDER_K8S_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const SHARED = path.join(ROOT, "../shared/vnf-packages");
const KEY = path.join(ROOT, "test/fixtures/pki/client.key");

let registered: Registered[];
let program: typeof import("../../../stacks/program");

beforeAll(async () => {
  registered = installMocks("unit");
  program = await import("../../../stacks/program");
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

function setConfig(vims: unknown, vnfs: unknown): void {
  pulumi.runtime.setAllConfig({ "pulumi-nfv:vims": JSON.stringify(vims), "pulumi-nfv:vnfs": JSON.stringify(vnfs) }, ["pulumi-nfv:vims"]);
}

async function failure(): Promise<DiagnosticError> {
  try {
    await program.deployStack();
  } catch (err) {
    return err as DiagnosticError;
  }
  throw new Error("expected the stack config to be refused");
}

describe("vnfs in a stack config", () => {
  it("a CNF package with a Tacker request becomes a ContainerizedVnf on the Kubernetes VIM", async () => {
    setConfig(
      { edge: RENDER_K8S_VIM },
      { cnf: { vim: "edge", package: path.join(SHARED, "test_cnf"), instantiate_request: "lab/requests/test-cnf-simple.json" } },
    );
    const outputs = await program.deployStack();
    expect(Object.keys(outputs.vnfs)).toEqual(["cnf"]);
    await settle();
    const types = registered.map((r) => `${r.type} ${r.name}`);
    expect(types).toEqual(
      expect.arrayContaining([
        "nfv:cnf:ContainerizedVnf cnf",
        "kubernetes:core/v1:ConfigMap cnf-configmap-curry-test001",
        "kubernetes:core/v1:Pod cnf-pod-vdu1",
        "kubernetes:apps/v1:Deployment cnf-deployment-vdu2",
      ]),
    );
    const deployment = registered.find((r) => r.type === "kubernetes:apps/v1:Deployment")!;
    expect(deployment.provider).toContain("edge-provider");
  });

  it("a CNF's plan warnings are reported once (by its ContainerizedVnf), its plan errors at the request file, before anything is registered", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-cnf-request-"));
    const warn = vi.spyOn(pulumi.log, "warn");
    try {
      const request = (name: string, files: string[]) => {
        writeFileSync(
          path.join(dir, name),
          JSON.stringify({ flavourId: "simple", additionalParams: { "lcm-kubernetes-def-files": files.map((f) => `Files/kubernetes/${f}`) } }),
        );
        return path.join(dir, name);
      };
      // A TokenReview is a request to the API server, not an object: skipped with a warning.
      const cnf = (file: string) => ({ cnf: { vim: "edge", package: path.join(SHARED, "test_cnf"), instantiate_request: file } });
      setConfig({ edge: RENDER_K8S_VIM }, cnf(request("ok.json", ["pod.yaml", "deployment.yaml", "token-review.yaml"])));
      await program.deployStack();
      await settle();
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("CNF_KIND_IGNORED"))).toEqual([
        expect.stringMatching(/token-review\.yaml:\d+:\d+ .*warning CNF_KIND_IGNORED: TokenReview is a request/),
      ]);
      registered.length = 0;

      const bad = request("bad.json", ["nope.yaml"]);
      setConfig({ edge: RENDER_K8S_VIM }, cnf(bad));
      const e = await failure();
      expect(e.diagnostics.find((d) => d.code === "CNF_MANIFEST_NOT_DECLARED")).toMatchObject({
        file: bad,
        path: "additionalParams.lcm-kubernetes-def-files[0]",
      });
      await settle();
      expect(registered.filter((r) => r.type.startsWith("kubernetes:"))).toEqual([]);
    } finally {
      warn.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a registry on an existing host becomes a PrivateRegistry whose install runs over SSH", async () => {
    setConfig(
      {},
      {
        registry: {
          host: { address: "10.254.0.10", user: "root", private_key_file: KEY },
          mode: "native",
          installation_param: { ssh_username: "root", port_no: 5000 },
        },
      },
    );
    await program.deployStack();
    await settle();
    expect(registered.map((r) => r.type)).toEqual(expect.arrayContaining(["nfv:registry:PrivateRegistry", "command:remote:Command"]));
  });

  it("host_key_file pins the host key read from the file (key type and body, no comment)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-hostkey-"));
    writeFileSync(path.join(dir, "ssh_host_ed25519_key.pub"), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIlabhostkey lab host key\n");
    setConfig(
      {},
      {
        registry: {
          host: { address: "10.254.0.10", user: "root", private_key_file: KEY, host_key_file: path.join(dir, "ssh_host_ed25519_key.pub") },
          mode: "native",
          installation_param: { port_no: 5000 },
        },
      },
    );
    await program.deployStack();
    await settle();
    const install = registered.find((r) => r.name === "registry-host-instantiate_end")!;
    const conn = JSON.stringify(install.inputs.connection);
    expect(conn).toContain('"hostKey":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIlabhostkey"');
    rmSync(dir, { recursive: true });
  });

  it("host_key with host_key_file, or a missing host_key_file, is refused before anything is registered", async () => {
    setConfig({}, { registry: { host: { address: "10.254.0.10", user: "root", host_key: "ssh-ed25519 AAAA", host_key_file: "/nonexistent/key.pub" } } });
    const e = await failure();
    expect(e.diagnostics.map((d) => d.code)).toEqual(["CONFIG_MIXED_KEYS"]);
    setConfig({}, { registry: { host: { address: "10.254.0.10", user: "root", host_key_file: "/nonexistent/key.pub" } } });
    expect((await failure()).diagnostics.map((d) => d.message)).toEqual(["host.host_key_file /nonexistent/key.pub does not exist"]);
    await settle();
    expect(registered).toEqual([]);
  });

  it("ssh without host_key or host_key_file: a warning at the key (the host is not verified); none with a pinned key", async () => {
    const warn = vi.spyOn(pulumi.log, "warn");
    setConfig(
      {},
      { registry: { host: { address: "10.254.0.10", user: "root", private_key_file: KEY }, mode: "native", installation_param: { port_no: 5000 } } },
    );
    await program.deployStack();
    await settle();
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("CONFIG_NO_HOST_KEY"))).toEqual([
      expect.stringMatching(/^pulumi-nfv:vnfs\.registry\.host: warning CONFIG_NO_HOST_KEY: host has no host_key or host_key_file/),
    ]);
    warn.mockClear();
    setConfig(
      {},
      {
        registry: {
          host: { address: "10.254.0.10", user: "root", private_key_file: KEY, host_key: "ssh-ed25519 AAAA" },
          mode: "native",
          installation_param: { port_no: 5000 },
        },
      },
    );
    await program.deployStack();
    expect(warn.mock.calls.some((c) => String(c[0]).includes("CONFIG_NO_HOST_KEY"))).toBe(false);
    warn.mockRestore();
  });

  it("a VIM with an error: only its own error, not 'vim ... is not one of the stack's vims' on each VNF naming it", async () => {
    setConfig(
      { core: { ...OS_VIM, auth_url: "not a url" } },
      { hw: { vim: "core", package: path.join(SHARED, "helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" } },
    );
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([["VIM_BAD_URL", "pulumi-nfv:vims.core.auth_url"]]);
    await settle();
    expect(registered).toEqual([]);
  });

  it("a VNF name too long for the OpenStack names built from it is refused at its key; VmVnf checks the exact names too", async () => {
    const long = "v".repeat(300);
    setConfig(
      { core: OS_VIM },
      { [long]: { vim: "core", package: path.join(SHARED, "helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" } },
    );
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      ["CONFIG_BAD_VALUE", `pulumi-nfv:vnfs.${long}`, "the VNF name is 300 characters; at most 128 (OpenStack names built from it stop at 255)"],
    ]);
    await settle();
    expect(registered).toEqual([]);
  });

  it("helloworld3 becomes a VmVnf on the OpenStack VIM", async () => {
    setConfig(
      { core: OS_VIM },
      { hw: { vim: "core", package: path.join(SHARED, "helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" } },
    );
    await program.deployStack();
    await settle();
    const servers = registered.filter((r) => r.type === "openstack:compute/instance:Instance").map((r) => r.name);
    expect(servers.sort()).toEqual(["hw-VDU1-0", "hw-VDU2-0"]);
  });

  it("refuses bad entries with one error, registering nothing", async () => {
    setConfig(
      { edge: RENDER_K8S_VIM },
      {
        a: { vim: "nowhere", package: path.join(SHARED, "test_cnf"), instantiate_request: "lab/requests/test-cnf-simple.json" },
        b: { vim: "edge", package: "no/such/package", instantiate_request: "lab/requests/test-cnf-simple.json", colour: "blue" },
        c: { host: { address: "10.254.0.10", user: "root", port: 70000 } },
      },
    );
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["CONFIG_UNKNOWN_VIM", "pulumi-nfv:vnfs.a.vim"],
      ["CONFIG_UNKNOWN_KEY", "pulumi-nfv:vnfs.b.colour"],
      ["CONFIG_FILE_MISSING", "pulumi-nfv:vnfs.b.package"],
      ["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.c.host.port"],
    ]);
    await settle();
    expect(registered).toEqual([]);
  });

  /**
   * A directory where the configuration needs a file: `configure(dir)` sets the stack config naming
   * a fresh directory, and each field is refused (CONFIG_NOT_A_FILE at its config path, its label in
   * the message), in that order; nothing registered.
   */
  async function refusesDirectory(configure: (dir: string) => void, fields: [configPath: string, label: string][]): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-dir-"));
    try {
      configure(dir);
      const err = await failure();
      expect(err.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual(
        fields.map(([configPath, label]) => ["CONFIG_NOT_A_FILE", `pulumi-nfv:${configPath}`, `${label} ${dir} is a directory, not a file`]),
      );
      await settle();
      expect(registered).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }

  it("a user-named path that is a directory (hook, instantiate_request, SSH keys, vim file:) is refused, located, naming the field; nothing registered", async () => {
    await refusesDirectory(
      (dir) =>
        setConfig(
          { core: OS_VIM, lab: { file: dir } },
          {
            hw: {
              vim: "core",
              package: path.join(SHARED, "helloworld3"),
              instantiate_request: dir,
              ssh: { cp: "CP1", user: "ubuntu", private_key_file: dir, public_key_file: dir },
              hooks: { instantiate_end: dir },
            },
          },
        ),
      [
        ["vims.lab.file", "vim-config file"],
        ["vnfs.hw.instantiate_request", "instantiate_request"],
        ["vnfs.hw.ssh.private_key_file", "ssh.private_key_file"],
        ["vnfs.hw.ssh.public_key_file", "ssh.public_key_file"],
        ["vnfs.hw.hooks.instantiate_end", "hooks.instantiate_end"],
      ],
    );
  });

  it("a host_key_file that is a directory (ssh of a VM VNF, host of a registry) is refused, located, naming the field; nothing registered", async () => {
    await refusesDirectory(
      (dir) =>
        setConfig(
          { core: OS_VIM },
          {
            hw: {
              vim: "core",
              package: path.join(SHARED, "helloworld3"),
              instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
              ssh: { cp: "CP1", user: "u", private_key_file: KEY, host_key_file: dir },
            },
            registry: {
              host: { address: "10.254.0.10", user: "root", private_key_file: KEY, host_key_file: dir },
              mode: "native",
              installation_param: { port_no: 5000 },
            },
          },
        ),
      [
        ["vnfs.hw.ssh.host_key_file", "ssh.host_key_file"],
        ["vnfs.registry.host.host_key_file", "host.host_key_file"],
      ],
    );
  });

  it("a cluster's cni_manifest or apt_source_file that is a directory is refused, located, naming the field; nothing registered", async () => {
    await refusesDirectory(
      (dir) => {
        const cluster = {
          kubernetes_version: "1.30.14",
          kubernetes_package_version: "1.30.14-1.1",
          containerd_package_version: "1.7.24-1",
          sandbox_image: "192.168.246.10:5000/pause:3.9",
          cni_manifest: dir,
          apt_source_file: dir,
        };
        setConfig(
          { core: OS_VIM },
          {
            k8s: {
              vim: "core",
              package: kubernetesPackage(),
              instantiate_request: "test/fixtures/k8s-cluster/private_registry_kubernetes_param_file.json",
              ssh: { user: "ubuntu", private_key_file: KEY, host_key: "ssh-ed25519 AAAA" },
              cluster,
            },
          },
        );
      },
      [
        ["vnfs.k8s.cluster.cni_manifest", "cluster.cni_manifest"],
        ["vnfs.k8s.cluster.apt_source_file", "cluster.apt_source_file"],
      ],
    );
  });

  it("a change_ext_conn request that is a directory is refused at its index, naming the field; nothing registered", async () => {
    await refusesDirectory(
      (dir) =>
        setConfig(
          { core: OS_VIM },
          {
            hw: {
              vim: "core",
              package: path.join(SHARED, "helloworld3"),
              instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
              ssh: { cp: "CP1", user: "u", private_key_file: KEY, host_key: "ssh-ed25519 AAAA" },
              change_ext_conn: { requests: ["test/fixtures/vnf/helloworld3_change_ext_conn.json", dir], previous_addresses: { "VDU1-0": "192.0.2.21" } },
            },
          },
        ),
      [["vnfs.hw.change_ext_conn.requests[1]", "change_ext_conn.requests[1]"]],
    );
  });

  it("two hooks with the same file name are refused at the second (one would overwrite the other on the VM)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-hooks-"));
    for (const d of ["a", "b"]) {
      mkdirSync(path.join(dir, d));
      writeFileSync(path.join(dir, d, "configure.sh"), "true\n");
    }
    setConfig(
      { core: OS_VIM },
      {
        hw: {
          vim: "core",
          package: path.join(SHARED, "helloworld3"),
          instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
          ssh: { cp: "CP1", user: "u", private_key_file: KEY, host_key: "ssh-ed25519 AAAA" },
          hooks: { instantiate_end: path.join(dir, "a/configure.sh"), heal_end: path.join(dir, "b/configure.sh") },
        },
      },
    );
    const err = await failure();
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([["CONFIG_BAD_VALUE", "pulumi-nfv:vnfs.hw.hooks.heal_end"]]);
    await settle();
    expect(registered).toEqual([]);
    rmSync(dir, { recursive: true });
  });

  it("change_vnfpkg: pending VNFCs without previous_package, a missing previous package, a request that is not a list; nothing registered", async () => {
    const hw = (change_vnfpkg: unknown) => ({
      hw: {
        vim: "core",
        package: path.join(SHARED, "helloworld3"),
        instantiate_request: "test/fixtures/vnf/helloworld3_level1.json",
        change_vnfpkg,
      },
    });
    setConfig({ core: OS_VIM }, hw({ pending: ["VDU1-0"] }));
    expect((await failure()).diagnostics.map((d) => [d.code, d.path])).toEqual([["CONFIG_MISSING_FIELD", "pulumi-nfv:vnfs.hw.change_vnfpkg.pending"]]);
    setConfig({ core: OS_VIM }, hw({ previous_package: "/nonexistent/pkg", pending: ["VDU1-0"] }));
    expect((await failure()).diagnostics.map((d) => [d.code, d.path])).toEqual([["CONFIG_FILE_MISSING", "pulumi-nfv:vnfs.hw.change_vnfpkg.previous_package"]]);
    setConfig({ core: OS_VIM }, hw({ requests: "change.json" }));
    expect((await failure()).diagnostics.map((d) => [d.code, d.path])).toEqual([["CONFIG_BAD_TYPE", "pulumi-nfv:vnfs.hw.change_vnfpkg.requests"]]);
    await settle();
    expect(registered).toEqual([]);
  });

  it("refuses a VM-based package on a Kubernetes VIM", async () => {
    setConfig(
      { edge: RENDER_K8S_VIM },
      { hw: { vim: "edge", package: path.join(SHARED, "helloworld3"), instantiate_request: "test/fixtures/vnf/helloworld3_level1.json" } },
    );
    const err = await failure();
    expect(err.diagnostics.map((d) => d.code)).toEqual(["CONFIG_WRONG_VIM"]);
    expect(err.message).toContain("VNF 'hw' is a vm-vnf and needs a VIM of type openstack; 'edge' is kubernetes");
  });
});
