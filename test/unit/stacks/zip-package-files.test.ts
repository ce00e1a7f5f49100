/**
 * Package files that parameters name (`certificate_path`, `helm_installation_script_path`,
 * registry `image_path`) from a `.zip` package, through the stack program (Pulumi mocks): read
 * through the package source as from a directory, by the same rules (inside the package, a regular
 * file, never a symbolic link). The zips are written here (test/fixtures/zip.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { componentPackageFile, componentPackageFileOnDisk, packageFileCacheDir } from "../../../components/package-file";
import { readRegistryInstallation } from "../../../components/registry/params";
import type { DiagnosticError } from "../../../translators/diagnostics";
import { openPackage } from "../../../translators/tosca/phase1-read/read-package";
import { plain, settle, type Registered } from "../helpers/pulumi-mocks";
import { writeZipPackage } from "../../fixtures/zip";
import { installK8sMocks } from "../k8s-cluster/k8s-mocks";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";
import { OS_VIM } from "./vims";

const ROOT = path.join(__dirname, "../../..");
const PACKAGES = path.join(ROOT, "../shared/vnf-packages");
const KEY = path.join(ROOT, "test/fixtures/pki/client.key");
const CLUSTER = {
  kubernetes_version: "1.30.14",
  kubernetes_package_version: "1.30.14-1.1",
  containerd_package_version: "1.7.24-1",
  sandbox_image: "192.168.246.10:5000/pause:3.9",
};
// Not the directory fixtures' contents: what is read must come from the zip.
const ZIP_CA = readFileSync(path.join(ROOT, "test/fixtures/pki/ca-b.crt"), "utf8");
const ZIP_HELM = "#!/bin/bash\n# the helm script inside the zip package\necho helm from zip\n";
const ZIP_IMAGE = Buffer.concat([Buffer.from("docker save tarball from the zip\n"), Buffer.alloc(4096, 7)]);

let registered: Registered[];
let program: typeof import("../../../stacks/program");
let work: string;
let k8sZip: string;
let registryZip: string;
let registryRequest: string;

beforeAll(async () => {
  registered = installK8sMocks();
  program = await import("../../../stacks/program");
  work = mkdtempSync(path.join(tmpdir(), "nfv-zip-files-"));
  process.env.NFV_PACKAGE_FILE_CACHE = path.join(work, "cache");
  k8sZip = writeZipPackage(path.join(work, "k8s.zip"), kubernetesPackage(), [
    { name: "Files/registry-ca.crt", content: ZIP_CA },
    { name: "Scripts/install_helm.sh", content: ZIP_HELM },
    { name: "Files/a-directory.crt", directory: true },
  ]);
  registryZip = writeZipPackage(path.join(work, "registry.zip"), path.join(PACKAGES, "private_registry_vnf_package"), [
    { name: "Files/images/registry.tar", content: ZIP_IMAGE },
    { name: "Files/images/dir.tar", directory: true },
  ]);
  const seed = readFileSync(path.join(ROOT, "test/fixtures/vnf/private_registry_param_file.json"), "utf8");
  registryRequest = path.join(work, "registry-request.json");
  writeFileSync(registryRequest, seed.replace('"ssh_password": "ubuntu",', '"ssh_password": "ubuntu",\n      "image_path": "Files/images/registry.tar",'));
});
afterAll(() => {
  delete process.env.NFV_PACKAGE_FILE_CACHE;
  rmSync(work, { recursive: true, force: true });
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

function setConfig(vnfs: unknown): void {
  pulumi.runtime.setAllConfig({ "pulumi-nfv:vims": JSON.stringify({ core: OS_VIM }), "pulumi-nfv:vnfs": JSON.stringify(vnfs) }, ["pulumi-nfv:vims"]);
}
const named = (name: string) => {
  const r = registered.filter((x) => x.name === name);
  expect(r, name).toHaveLength(1);
  return r[0];
};
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("a zip package's files named by parameters, through the stack program", () => {
  it("K8sCluster: certificate_path and helm_installation_script_path are read from the zip", async () => {
    setConfig({
      k8sz: {
        vim: "core",
        package: k8sZip,
        instantiate_request: "test/fixtures/k8s-cluster/complex_request.json",
        ssh: { user: "ubuntu", private_key_file: KEY },
        cluster: CLUSTER,
      },
    });
    await program.deployStack();
    await settle();
    // The helm script copied to every master is the zip's.
    const copies = registered.filter((r) => r.name.endsWith("-copy-helm-script"));
    expect(copies.map((c) => c.name).sort()).toEqual([
      "k8sz-masterNode-0-copy-helm-script",
      "k8sz-masterNode-1-copy-helm-script",
      "k8sz-masterNode-2-copy-helm-script",
    ]);
    for (const c of copies) expect(await (c.inputs.source as { text: Promise<string> }).text).toBe(ZIP_HELM);
    // The HTTPS registry's CA on every node is the zip's certificate.
    const stdin = plain(named("k8sz-workerNode-0-registries").inputs.stdin) as string;
    const https = stdin
      .split("\n")
      .filter((l) => l.startsWith("REGISTRY="))
      .map((l) => l.slice("REGISTRY=".length).split("|"))
      .find((f) => f[2] !== "");
    expect(https?.[2]).toBe(b64(ZIP_CA));
  });

  it("PrivateRegistry: image_path is the zip's entry, copied to the VM from a private cache, content-addressed", async () => {
    setConfig({
      regz: { vim: "core", package: registryZip, instantiate_request: registryRequest, ssh: { user: "ubuntu", private_key_file: KEY }, mode: "container" },
    });
    await program.deployStack();
    await settle();
    const copy = registered.find((r) => r.type === "command:remote:CopyToRemote" && r.inputs.remotePath === "/var/tmp/nfv/registry-image.tar");
    expect(copy, "the image tarball is copied").toBeDefined();
    const file = await (copy!.inputs.source as { path: Promise<string> }).path;
    expect(path.dirname(path.dirname(file))).toBe(packageFileCacheDir());
    expect(readFileSync(file)).toEqual(ZIP_IMAGE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(packageFileCacheDir()).mode & 0o777).toBe(0o700);
  });

  it("the same refusals as for a directory: outside the package, a directory entry, a missing file, each at its field, nothing of the registry registered", async () => {
    const bad = path.join(work, "bad-registry-request.json");
    for (const [imagePath, reason] of [
      ["../registry.tar", "must be a path inside the package"],
      ["Files/images/dir.tar", `is not a file of the package ${registryZip}`],
      ["Files/images/none.tar", `is not a file of the package ${registryZip}`],
    ]) {
      writeFileSync(bad, readFileSync(registryRequest, "utf8").replace("Files/images/registry.tar", imagePath));
      setConfig({ regz: { vim: "core", package: registryZip, instantiate_request: bad, ssh: { user: "ubuntu", private_key_file: KEY }, mode: "container" } });
      const err = await program.deployStack().then(
        () => undefined,
        (e: DiagnosticError) => e,
      );
      expect(err?.diagnostics?.map((d) => [d.code, d.path, d.message])).toEqual([
        ["REGISTRY_IMAGE_PATH", "additionalParams.private_registry_installation_param.image_path", `image_path ${imagePath} ${reason}`],
      ]);
    }
    await settle();
    expect(registered.filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("nfv:vim:") && !r.type.startsWith("pulumi:providers:"))).toEqual([]);
  });
});

describe("VmVnf images: upload from a zip package", () => {
  it("the Glance image's local file is the zip's artifact, copied out once", async () => {
    const { VmVnf } = await import("../../../components/vnf");
    const { translateRead } = await import("../../../translators/tosca/translate");
    const openstack = await import("@pulumi/openstack");
    const { readInstantiateRequest } = await import("../../../translators/tacker/instantiate-request");
    const image = Buffer.concat([Buffer.from("qcow2 image from the zip\n"), Buffer.alloc(2048, 1)]);
    const zip = writeZipPackage(path.join(work, "hw3.zip"), path.join(PACKAGES, "helloworld3"), [
      { name: "Files/images/cirros-0.5.2-x86_64-disk.img", content: image },
    ]);
    const pkg = await openPackage(zip);
    const model = translateRead(pkg).model!;
    const request = readInstantiateRequest(readFileSync(path.join(ROOT, "test/fixtures/vnf/helloworld3_level1.json"), "utf8"), "r.json").request!;
    const provider = new openstack.Provider("p", { authUrl: "http://192.0.2.10/identity" });
    new VmVnf("hwz", {
      flavours: model.flavours,
      request,
      provider,
      images: "upload",
      packageSource: pkg.source,
      flavorNames: { VDU1: "m1.tiny", VDU2: "m1.small" },
    });
    await settle();
    const uploads = registered.filter((r) => r.type === "openstack:images/image:Image");
    // VDU1's image and the storage's, both this one file of the package.
    expect(uploads.map((u) => u.inputs.name).sort()).toEqual(["Software of VDU1", "VirtualStorage"]);
    const local = uploads[0].inputs.localFilePath as string;
    expect(uploads[1].inputs.localFilePath).toBe(local);
    expect(path.dirname(path.dirname(local))).toBe(packageFileCacheDir());
    expect(readFileSync(local)).toEqual(image);
  });
});

describe("componentPackageFile / componentPackageFileOnDisk", () => {
  it("a zip package is read through its source; its entry lands once at one path, the cache kept private", async () => {
    const source = (await openPackage(registryZip)).source;
    expect(componentPackageFile({ packageSource: source }, "Files/images/./registry.tar")).toEqual({ file: "Files/images/registry.tar", content: ZIP_IMAGE });
    const a = componentPackageFileOnDisk({ packageSource: source }, "Files/images/registry.tar");
    const b = componentPackageFileOnDisk({ packageSource: source }, "Files/images/registry.tar");
    expect("path" in a && "path" in b && a.path === b.path).toBe(true);
    // readRegistryInstallation takes the same source.
    expect(readRegistryInstallation({ ssh_username: "u", image_path: "Files/images/registry.tar" }, { packageSource: source }).value?.imageFile).toBe(
      (a as { path: string }).path,
    );
  });

  it("a zip given as a package directory is refused with the way to give it; a cache another user could write is refused", async () => {
    expect(
      readRegistryInstallation({ ssh_username: "u", image_path: "Files/images/registry.tar" }, { packageDir: registryZip })
        .bag.errors()
        .map((d) => d.message),
    ).toEqual([
      `image_path Files/images/registry.tar cannot be read: the package ${registryZip} is not a directory: give a zip package as packageSource (openPackage(path).source)`,
    ]);
    const source = (await openPackage(registryZip)).source;
    const open = path.join(work, "open-cache");
    mkdirSync(open, { mode: 0o777 });
    const saved = process.env.NFV_PACKAGE_FILE_CACHE;
    process.env.NFV_PACKAGE_FILE_CACHE = open;
    try {
      const { chmodSync } = await import("node:fs");
      chmodSync(open, 0o777);
      const r = componentPackageFileOnDisk({ packageSource: source }, "Files/images/registry.tar");
      expect(r).toEqual({ reason: `could not be copied out of the package ${registryZip}: ${open} must be a directory of this user's alone (mode 0700)` });
    } finally {
      process.env.NFV_PACKAGE_FILE_CACHE = saved;
    }
  });

  it("a zip with a symbolic link entry is refused as a package (PKG_ZIP_ESCAPE): nothing in it can be named", async () => {
    const linked = writeZipPackage(path.join(work, "linked.zip"), path.join(PACKAGES, "private_registry_vnf_package"), [
      { name: "Files/images/registry.tar", symlinkTo: "/etc/passwd" },
    ]);
    const pkg = await openPackage(linked);
    expect(pkg.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["PKG_ZIP_ESCAPE", "entry `Files/images/registry.tar` is a symbolic link; it could write outside the package"],
    ]);
    expect(componentPackageFile({ packageSource: pkg.source }, "Files/images/registry.tar")).toEqual({ reason: `is not a file of the package ${linked}` });
  });
});
