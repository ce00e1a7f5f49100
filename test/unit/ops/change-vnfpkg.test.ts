/**
 * `nfv change-vnfpkg` planning on our scalable VM fixture (two VNFCs at scale level 1): the steps
 * and config each writes, the request's order and batch size, and a located error for each
 * mistake (wrong vnfdId, unknown VDU, BlueGreen, a resize, the same VNFD, a change under way).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planChangeVnfpkgOperation } from "../../../ops/change-vnfpkg";
import { DiagnosticBag, DiagnosticError } from "../../../translators/diagnostics";
import { loadVnfPackage } from "../../../translators/load-vnf-package";
import { prepareVnfs, type VnfEntry } from "../../../stacks/vnfs";
import { scalableVmPackage } from "../../fixtures/scalable-vm-package";

const ROOT = path.join(__dirname, "../../..");
const V1_ID = "9a3f6c1e-52b8-4d7a-9e0c-7b1d4f2a8c65";
const V2_ID = "5d0c7e2a-1b3f-4c6d-8e9a-0f1b2c3d4e5f";
let work: string;
let v1: string;
let v2: string;
let entry: VnfEntry;

const newVnfd = (s: string, id = V2_ID) =>
  s.replaceAll(V1_ID, id).replace('software_version: { type: string, default: "1.0" }', 'software_version: { type: string, default: "2.0" }');
const newImage = (s: string) => s.replace("name: cirros-0.5.2-x86_64-disk", "name: Software of VDU1");

function changeRequest(additionalParams: Record<string, unknown>, vnfdId = V2_ID): { path: string; text: string } {
  const file = path.join(work, "change.json");
  const text = JSON.stringify({ vnfdId, additionalParams: { upgrade_type: "RollingUpdate", ...additionalParams } }, null, 2);
  writeFileSync(file, text);
  return { path: file, text };
}

async function prepared(e: VnfEntry = entry) {
  const bag = new DiagnosticBag();
  const p = await prepareVnfs([e], bag);
  expect(bag.errors()).toEqual([]);
  return p;
}

async function plan(pkg: string, request?: { path: string; text: string }, e: VnfEntry = entry) {
  return planChangeVnfpkgOperation(await prepared(e), { packagePath: pkg, loaded: await loadVnfPackage(pkg), ...(request ? { request } : {}) });
}

async function refusal(f: () => Promise<unknown>): Promise<DiagnosticError> {
  const e = await f().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DiagnosticError);
  return e as DiagnosticError;
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "change-vnfpkg-"));
  v1 = scalableVmPackage(work, "v1", (s) => s);
  v2 = scalableVmPackage(work, "v2", (s) => newImage(newVnfd(s)));
  const request = path.join(work, "instantiate.json");
  writeFileSync(
    request,
    JSON.stringify({
      flavourId: "simple",
      extVirtualLinks: [
        { id: "ext0", resourceId: "net-1", extCps: [{ cpdId: "workerCp", cpConfig: [{ cpProtocolData: [{ layerProtocol: "IP_OVER_ETHERNET" }] }] }] },
      ],
    }),
  );
  entry = {
    name: "w",
    vim: "lab",
    vnfInstanceId: "1c7e2d3a-0000-4000-8000-000000000001",
    packagePath: v1,
    requestPath: request,
    scaleLevels: { worker_aspect: 1 },
  };
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const key = (k: string) => `pulumi-nfv:vnfs.w.${k}`;

describe("nfv change-vnfpkg plans", () => {
  it("VM VNF without a request: every VNFC whose image changes, one per step; the others pending on the previous package", async () => {
    const p = await plan(v2);
    expect(p.steps.map((s) => s.configChanges)).toEqual([
      [
        { key: key("package"), value: v2 },
        { key: key("package_generations.worker-0"), value: "1" },
        { key: key("change_vnfpkg.pending"), remove: true },
        { key: key("change_vnfpkg.previous_package"), value: v1 },
        { key: key("change_vnfpkg.pending[0]"), value: "worker-1" },
      ],
      [
        { key: key("package_generations.worker-1"), value: "1" },
        { key: key("change_vnfpkg.pending"), remove: true },
        { key: key("change_vnfpkg.previous_package"), remove: true },
      ],
    ]);
    expect(p.steps[0].summary).toEqual([
      `step 1 of 2 (to scalable-vm 2.0 (VNFD ${V2_ID})):`,
      "VNFC worker-0: image cirros-0.5.2-x86_64-disk → Software of VDU1; the server rebuilt or resized in place",
    ]);
  });

  it("the request: recorded in change_vnfpkg.requests; batch_size VNFCs per step; generations counted on", async () => {
    const request = changeRequest({ vdu_params: [{ vdu_id: "worker" }], batch_size: 2 });
    const p = await plan(v2, request, { ...entry, packageGenerations: { "worker-0": 3, "worker-1": 1 } });
    expect(p.steps).toHaveLength(1);
    expect(p.steps[0].configChanges).toEqual([
      { key: key("package"), value: v2 },
      { key: key("change_vnfpkg.requests[0]"), value: request.path },
      { key: key("package_generations.worker-0"), value: "4" },
      { key: key("package_generations.worker-1"), value: "2" },
      { key: key("change_vnfpkg.pending"), remove: true },
      { key: key("change_vnfpkg.previous_package"), remove: true },
    ]);
  });

  it("the program sees a change under way: the previous package's model for the pending VNFCs", async () => {
    const [p] = await prepared({ ...entry, packagePath: v2, packageChange: { requestPaths: [], previousPackagePath: v1, pending: ["worker-1"] } });
    expect(p.model!.vnf.descriptorId).toBe(V2_ID);
    expect(p.previousModel!.vnf.descriptorId).toBe(V1_ID);
    // Another change cannot start before this one is finished or rolled back.
    const e = await refusal(() =>
      plan(v2, undefined, { ...entry, packagePath: v2, packageChange: { requestPaths: [], previousPackagePath: v1, pending: ["worker-1"] } }),
    );
    expect(e.diagnostics[0].code).toBe("CHANGE_VNFPKG_UNDER_WAY");
  });

  it("a vnfdId that is not the new package's, located in the request", async () => {
    const e = await refusal(() => plan(v2, changeRequest({}, "00000000-0000-4000-8000-000000000000")));
    expect(e.diagnostics[0]).toMatchObject({ code: "CHANGE_VNFPKG_VNFD_MISMATCH", file: path.join(work, "change.json"), line: 2 });
  });

  it("an unknown VDU in vdu_params, located; a changed VDU left out of vdu_params", async () => {
    const unknown = await refusal(() => plan(v2, changeRequest({ vdu_params: [{ vdu_id: "VDU9" }] })));
    expect(unknown.diagnostics[0]).toMatchObject({ code: "CHANGE_VNFPKG_UNKNOWN_VDU", line: 7 });
    const left = await refusal(() => plan(v2, changeRequest({ vdu_params: [] })));
    expect(left.diagnostics[0].code).toBe("CHANGE_VNFPKG_VDU_NOT_LISTED");
  });

  it("BlueGreen and a bad batch_size are refused by the request reader, located", async () => {
    const blue = await refusal(() => plan(v2, changeRequest({ upgrade_type: "BlueGreen" })));
    expect(blue.diagnostics[0]).toMatchObject({ code: "REQUEST_UNSUPPORTED", line: 4 });
    const batch = await refusal(() => plan(v2, changeRequest({ batch_size: 0 })));
    expect(batch.diagnostics[0]).toMatchObject({ code: "REQUEST_BAD_VALUE" });
  });

  it("the same VNFD, a resized sized flavor and a missing flavour are refused", async () => {
    expect((await refusal(() => plan(v1))).diagnostics[0].code).toBe("CHANGE_VNFPKG_SAME_VNFD");
    const resized = scalableVmPackage(work, "resized", (s) => newVnfd(s).replace("virtual_mem_size: 512 MB", "virtual_mem_size: 1024 MB"));
    expect((await refusal(() => plan(resized))).diagnostics[0].code).toBe("CHANGE_VNFPKG_FLAVOR_RESIZE");
    const other = scalableVmPackage(work, "other-flavour", (s) =>
      newVnfd(s).replace("default: simple }", "default: big }").replace("flavour_id: simple", "flavour_id: big"),
    );
    expect((await refusal(() => plan(other))).diagnostics[0].code).toBe("CHANGE_VNFPKG_NO_FLAVOUR");
  });

  it("a CNF: one step, the new package and the request recorded; the request's lcm-kubernetes-def-files must be declared by the new package", async () => {
    const cnfId = "b1bb0ce7-ebca-4fa7-95ed-4840d70a1177";
    const next = path.join(work, "test_cnf_v2");
    cpSync(path.join(ROOT, "../shared/vnf-packages/test_cnf"), next, { recursive: true });
    for (const f of ["helloworld3_top.vnfd.yaml", "helloworld3_types.yaml"]) {
      const file = path.join(next, "Definitions", f);
      writeFileSync(file, readFileSync(file, "utf8").replaceAll(cnfId, V2_ID));
    }
    const cnf: VnfEntry = {
      name: "w",
      vim: "k8s",
      vnfInstanceId: "1c7e2d3a-0000-4000-8000-000000000002",
      packagePath: path.join(ROOT, "../shared/vnf-packages/test_cnf"),
      requestPath: path.join(ROOT, "lab/requests/test-cnf-simple.json"),
    };
    const request = changeRequest({ vdu_params: [{ vdu_id: "VDU2" }] });
    const p = await plan(next, request, cnf);
    expect(p.steps.map((x) => x.configChanges)).toEqual([
      [
        { key: key("package"), value: next },
        { key: key("change_vnfpkg.requests[0]"), value: request.path },
      ],
    ]);
    expect(p.steps[0].summary[0]).toContain("each workload updated in place");
    const missing = changeRequest({ "lcm-kubernetes-def-files": ["Files/kubernetes/nonexistent.yaml"] });
    const e = await refusal(() => plan(next, missing, cnf));
    expect(e.diagnostics.map((d) => d.code)).toContain("CNF_MANIFEST_NOT_DECLARED");
  });

  it("a registry or a cluster VNF is not ours to change this way", async () => {
    const e = await refusal(async () =>
      planChangeVnfpkgOperation([{ entry: { name: "r", vnfInstanceId: "x", host: { user: "u", address: "127.0.0.1" } }, component: "registry-on-host" }], {
        vnf: "r",
        packagePath: v2,
        loaded: await loadVnfPackage(v2),
      }),
    );
    expect(e.diagnostics[0].code).toBe("OP_UNSUPPORTED");
  });
});
