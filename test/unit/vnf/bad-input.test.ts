/**
 * The issue's bad-input list: one clear error each, thrown before any resource (not even the
 * component) is registered.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as openstack from "@pulumi/openstack";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { settle, type Registered } from "../helpers/pulumi-mocks";
import type { DiagnosticError } from "../../../translators/diagnostics";
import type { InstantiateVnfRequest } from "../../../translators/tacker/instantiate-request";
import type { VnfModel } from "../../../translators/tosca/model";
import { installVnfMocks, model, PACKAGES, request } from "./vnf-mocks";

let registered: Registered[];
let vnf: typeof import("../../../components/vnf");
let reg: typeof import("../../../components/registry");
let ops: typeof import("../../../ops/vm");
let hw3: VnfModel;
let regPkg: VnfModel;
let provider: openstack.Provider;
const REG_DIR = path.join(PACKAGES, "private_registry_vnf_package");

beforeAll(async () => {
  ({ registered } = installVnfMocks());
  vnf = await import("../../../components/vnf");
  reg = await import("../../../components/registry");
  ops = await import("../../../ops/vm");
  hw3 = await model("helloworld3");
  regPkg = await model("private_registry_vnf_package");
  provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
  await settle();
  registered.length = 0;
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

/** Runs `f`, expects exactly one diagnostic with `code`, and no registration at all. */
async function oneError(f: () => unknown, code: string, text: RegExp): Promise<void> {
  let caught: DiagnosticError | undefined;
  try {
    f();
  } catch (e) {
    caught = e as DiagnosticError;
  }
  expect(caught, "an error is thrown").toBeDefined();
  expect(caught!.diagnostics.map((d) => d.code)).toEqual([code]);
  expect(caught!.message).toMatch(text);
  await settle();
  expect(registered.map((r) => r.name)).toEqual([]);
}

const hwReq = (patch: (r: InstantiateVnfRequest) => void) => {
  const r = structuredClone(request("helloworld3_level1.json"));
  patch(r);
  return r;
};
const regReq = (param: Record<string, unknown>) => {
  const r = structuredClone(request("private_registry_param_file.json"));
  r.additionalParams = { private_registry_installation_param: param };
  return r;
};
const SEED = { ssh_cp_name: "CP1", ssh_username: "ubuntu", ssh_password: "ubuntu" };

describe("bad input: one clear error each, nothing registered", () => {
  it("unknown cpdId", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: hwReq((r) => {
            r.extVirtualLinks![0].extCps.push({ cpdId: "CP9", cpConfig: [] });
          }),
        }),
      "VNF_UNKNOWN_CP",
      /cpdId `CP9` is not a CP of flavour `simple`/,
    ));
  it("instantiationLevelId not in the VNFD", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: hwReq((r) => {
            r.instantiationLevelId = "instantiation_level_9";
          }),
        }),
      "VNF_UNKNOWN_LEVEL",
      /instantiationLevelId `instantiation_level_9` is not a level of flavour `simple` \(levels: instantiation_level_1, instantiation_level_2\)/,
    ));
  it("flavourId not in the VNFD", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: hwReq((r) => {
            r.flavourId = "large";
          }),
        }),
      "VNF_UNKNOWN_FLAVOUR",
      /flavourId `large` is not a flavour of the VNFD \(flavours: simple\)/,
    ));
  it("flavourId not in the VNFD (registry)", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: { ...request("private_registry_param_file.json"), flavourId: "large" } },
        }),
      "VNF_UNKNOWN_FLAVOUR",
      /flavourId `large`/,
    ));
  it("scale level beyond max_scale_level (stack config)", () =>
    oneError(
      () => new vnf.VmVnf("hw", { flavours: hw3.flavours, provider, request: request("helloworld3_level1.json"), scaleLevels: { worker_instance: 3 } }),
      "VNF_SCALE_LEVEL",
      /scale level 3 of aspect `worker_instance` is outside 0..2 \(max_scale_level\)/,
    ));
  it("scale level beyond max_scale_level (planScale)", () =>
    oneError(
      () => ops.planScale({ flavour: hw3.flavours[0], currentLevels: { worker_instance: 2 }, aspectId: "worker_instance", steps: 1, type: "out" }),
      "SCALE_BEYOND_MAX",
      /reaches 3, beyond max_scale_level 2/,
    ));
  it("a VNFC id that does not exist (planHeal)", () =>
    oneError(
      () => ops.planHeal({ vnfcs: { "VDU1-0": { vdu: "VDU1", index: 0, serverUrn: "u", ports: {}, volumeUrns: [] } }, vnfcIds: ["VDU1-7"] }),
      "HEAL_UNKNOWN_VNFC",
      /VNFC `VDU1-7` does not exist \(VNFCs: VDU1-0\)/,
    ));
  it("missing ssh_cp_name", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ssh_username: "ubuntu", ssh_password: "pw" }) },
        }),
      "REGISTRY_SSH_CP_NAME",
      /`ssh_cp_name` is required/,
    ));
  it("ssh_cp_name that is not a CP", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", { vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ...SEED, ssh_cp_name: "CP7" }) } }),
      "REGISTRY_SSH_CP_NAME",
      /ssh_cp_name `CP7` is not a CP of the flavour \(CPs: CP1\)/,
    ));
  it("missing ssh_username", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ssh_cp_name: "CP1", ssh_password: "pw" }) },
        }),
      "REGISTRY_SSH_USERNAME",
      /`ssh_username` is required/,
    ));
  for (const port of [0, 65536, "70000", "http"]) {
    it(`port_no ${JSON.stringify(port)} outside 1-65535`, () =>
      oneError(
        () =>
          new reg.PrivateRegistry("reg", { vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ...SEED, port_no: port }) } }),
        "REGISTRY_PORT_NO",
        /is not a TCP port \(1-65535\)/,
      ));
  }
  it("image_path not in the package", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ...SEED, image_path: "Files/images/registry.tar" }) },
        }),
      "REGISTRY_IMAGE_PATH",
      /image_path Files\/images\/registry.tar is not a file of the package/,
    ));
  it("image_path escaping the package", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ...SEED, image_path: "../../etc/passwd" }) },
        }),
      "REGISTRY_IMAGE_PATH",
      /must be a path inside the package/,
    ));
  it("no SSH credential at all", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: regReq({ ssh_cp_name: "CP1", ssh_username: "ubuntu" }) },
        }),
      "REGISTRY_SSH_AUTH",
      /ssh_password` or `vnf.sshPrivateKey` is required/,
    ));
  it("an unpinned registry image", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: request("private_registry_param_file.json") },
          registryImage: "registry:latest",
        }),
      "REGISTRY_IMAGE",
      /must be pinned/,
    ));
  it("both vnf and host", () =>
    oneError(
      () =>
        new reg.PrivateRegistry("reg", {
          vnf: { flavours: regPkg.flavours, provider, packageDir: REG_DIR, request: request("private_registry_param_file.json") },
          host: { host: "h", user: "u", password: "p" },
        }),
      "REGISTRY_TARGET",
      /exactly one of `vnf`/,
    ));
  it("image upload without the image file in the package", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: request("helloworld3_level1.json"),
          images: "upload",
          packageDir: path.join(PACKAGES, "helloworld3"),
        }),
      "VNF_IMAGE_MISSING",
      /VDU `VDU1`: image file Files\/images\/cirros-0.5.2-x86_64-disk.img is not a file of the package/,
    ));
  it("hooks without SSH", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: request("helloworld3_level1.json"),
          hooks: [{ operation: "instantiate_end", script: __filename }],
        }),
      "VNF_HOOK_NO_SSH",
      /no `ssh` access/,
    ));
  it("a name that makes an OpenStack name longer than 255 characters (Nova refuses it only once earlier resources exist)", () =>
    oneError(
      () => new vnf.VmVnf("n".repeat(250), { flavours: hw3.flavours, provider, request: request("helloworld3_level1.json") }),
      "VNF_NAME_TOO_LONG",
      /would be 2\d\d characters; OpenStack allows 255/,
    ));
  it("two hook scripts with the same file name (both would be copied to the same file on the VM)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hooks-"));
    for (const d of ["a", "b"]) {
      mkdirSync(path.join(dir, d));
      writeFileSync(path.join(dir, d, "configure.sh"), `echo ${d}\n`);
    }
    await oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: request("helloworld3_level2.json"),
          ssh: { cpId: ["CP1", "CP3"], user: "u", privateKey: "k" },
          hooks: [
            { operation: "instantiate_end", script: path.join(dir, "a/configure.sh") },
            { operation: "heal_end", script: path.join(dir, "b/configure.sh") },
          ],
        }),
      "VNF_HOOK_SCRIPT",
      /have the same name configure.sh: both would be copied to the same file on the VM/,
    );
  });
  it("a hook script that is a directory (existsSync let it through, to fail later as EISDIR)", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: request("helloworld3_level2.json"),
          ssh: { cpId: ["CP1", "CP3"], user: "u", privateKey: "k" },
          hooks: [{ operation: "instantiate_end", script: __dirname }],
        }),
      "VNF_HOOK_SCRIPT",
      /hook script .* is a directory, not a file/,
    ));
  it("a file to copy (files[].source) that is a directory", () =>
    oneError(
      () =>
        new vnf.VmVnf("hw", {
          flavours: hw3.flavours,
          provider,
          request: request("helloworld3_level2.json"),
          ssh: { cpId: ["CP1", "CP3"], user: "u", privateKey: "k" },
          files: [{ source: __dirname, remotePath: "/etc/hw.conf" }],
        }),
      "VNF_FILE_MISSING",
      new RegExp(`files\\[0\\]\\.source: error VNF_FILE_MISSING: file ${__dirname} is a directory, not a file`),
    ));
  it("image upload where the package's image file is a directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pkg-dir-image-"));
    mkdirSync(path.join(dir, "Files/images/cirros-0.5.2-x86_64-disk.img"), { recursive: true });
    await oneError(
      () => new vnf.VmVnf("hw", { flavours: hw3.flavours, provider, request: request("helloworld3_level1.json"), images: "upload", packageDir: dir }),
      "VNF_IMAGE_MISSING",
      /images: error VNF_IMAGE_MISSING: VDU `VDU1`: image file Files\/images\/cirros-0.5.2-x86_64-disk.img is not a file of the package/,
    );
  });
});
