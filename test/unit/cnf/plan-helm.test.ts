/**
 * Helm CNFs in the plan: the fixture package (test/fixtures/packages/helm-cnf, through the real
 * package translator) with Tacker's helm_* additionalParams → releases, values, VNFC map; and each
 * bad request with its code and field. Proves the plan, not that the chart renders (the lab
 * integration test does).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planScale } from "../../../ops/cnf";
import { planCnf } from "../../../translators/kubernetes/plan";
import type { VnfModel } from "../../../translators/tosca/model";
import { DirectorySource, MemorySource, type PackageSource } from "../../../translators/tosca/phase1-read/package-source";
import { openPackage } from "../../../translators/tosca/phase1-read/read-package";
import { translateRead } from "../../../translators/tosca/translate";
import { HELM_CHART_DIR, HELM_CHART_TGZ, helmCnfPackage } from "../../fixtures/helm-cnf-package";
import { errors } from "./helpers";

let dir = "";
let model: VnfModel;
let source: PackageSource;

beforeAll(async () => {
  dir = helmCnfPackage();
  const pkg = await openPackage(dir);
  const r = translateRead(pkg);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  model = r.model!;
  source = pkg.source;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tgz = (extra: Record<string, unknown> = {}) => ({
  helm_chart_path: [{ chart_file: HELM_CHART_TGZ, chart_name: "web-chart" }],
  helm_release_name: "web",
  helm_parameters: { "image.tag": "1.2.4" },
  helm_value_names: { WEB: { replica: "replicaCount" } },
  ...extra,
});
const plan = (
  additionalParams: Record<string, unknown>,
  more: { instantiationLevelId?: string; scaleLevels?: Record<string, number>; charts?: PackageSource } = {},
) => planCnf({ model, flavourId: "simple", vnfInstanceId: "i-1", additionalParams, charts: more.charts ?? source, ...more });

describe("a Helm CNF (helm_chart_path)", () => {
  it("the chart archives and directory files are declared artifacts of the model", () => {
    expect(model.kubernetesManifests).toContain(HELM_CHART_TGZ);
    expect(model.kubernetesManifests).toContain(`${HELM_CHART_DIR}/Chart.yaml`);
  });

  it("one release of the .tgz: its name, helm_parameters as nested values, the level's replicas under helm_value_names; no planned objects", () => {
    const p = plan(tgz());
    expect(errors(p)).toEqual([]);
    expect(p.objects).toEqual([]);
    expect(p.helmReleases).toEqual([
      {
        key: "helm-web",
        releaseName: "web",
        chartFile: HELM_CHART_TGZ,
        chartFiles: [HELM_CHART_TGZ],
        values: { image: { tag: "1.2.4" }, replicaCount: 1 },
        where: { path: "additionalParams.helm_chart_path[0]" },
      },
    ]);
    expect(p.vnfcs.WEB).toEqual({ vduId: "WEB", kind: "Deployment", name: "web", labelSelector: "tacker_vnf_instance_id=i-1", replicas: 1 });
  });

  for (const [what, more, n] of [
    ["level large", { instantiationLevelId: "large" }, 3],
    ["scale level 1 of web_aspect (nfv scale out)", { scaleLevels: { web_aspect: 1 } }, 2],
  ] as const) {
    it(`${what}: replicaCount ${n}`, () => {
      const p = plan(tgz(), more);
      expect(errors(p)).toEqual([]);
      expect(p.helmReleases[0].values.replicaCount).toBe(n);
      expect(p.vnfcs.WEB.replicas).toBe(n);
    });
  }

  it("Tacker v2's form (one path) of a chart directory: every file under it; default release name from the instance id; the namespace", () => {
    const p = plan({ helm_chart_path: HELM_CHART_DIR, namespace: "cnf" });
    expect(errors(p)).toEqual([]);
    expect(p.namespace).toMatchObject({ namespace: "cnf" });
    expect(p.helmReleases[0]).toMatchObject({
      releaseName: expect.stringMatching(/^vnf-[0-9a-f]{8}$/),
      chartFiles: [`${HELM_CHART_DIR}/Chart.yaml`, `${HELM_CHART_DIR}/templates/deployment.yaml`, `${HELM_CHART_DIR}/values.yaml`],
      values: {},
    });
    // Not mapped by helm_value_names: the chart's own count, so the plan claims none.
    expect(p.vnfcs.WEB.replicas).toBeUndefined();
  });

  it("the same from a package in memory (as a zip is read)", () => {
    const files = new Map(source.list().map((f) => [f, source.read(f)!]));
    const p = plan(tgz(), { charts: new MemorySource("zip", files) });
    expect(errors(p)).toEqual([]);
    expect(p.helmReleases.map((r) => r.releaseName)).toEqual(["web"]);
  });

  it("two charts: each release named after its chart", () => {
    const p = plan({ helm_chart_path: [{ chart_file: HELM_CHART_TGZ, chart_name: "a" }, { chart_file: HELM_CHART_DIR }], helm_release_name: "web" });
    expect(errors(p)).toEqual([]);
    expect(p.helmReleases.map((r) => r.key)).toEqual(["helm-web-a", "helm-web-1"]);
  });
});

describe("bad Helm requests: one code per mistake, at the field", () => {
  const codes = (p: ReturnType<typeof plan>) => errors(p).map((d) => [d.code, d.path]);

  for (const [what, params, expected] of [
    [
      "an unknown chart file",
      tgz({ helm_chart_path: [{ chart_file: "Files/kubernetes/nope-1.0.0.tgz" }] }),
      [["CNF_CHART_UNKNOWN", "additionalParams.helm_chart_path[0]"]],
    ],
    [
      "a chart in the package that it does not declare",
      tgz({ helm_chart_path: "Files/kubernetes/undeclared-0.1.0.tgz" }),
      [["CNF_CHART_NOT_DECLARED", "additionalParams.helm_chart_path"]],
    ],
    [
      "helm_value_names naming an unknown VDU",
      tgz({ helm_value_names: { VDU9: { replica: "replicaCount" } } }),
      [["CNF_HELM_UNKNOWN_VDU", "additionalParams.helm_value_names.VDU9"]],
    ],
    [
      "helm_value_names without a replica path",
      tgz({ helm_value_names: { WEB: { replicas: "replicaCount" } } }),
      [["CNF_BAD_PARAM", "additionalParams.helm_value_names.WEB.replica"]],
    ],
    ["a list entry without chart_file", tgz({ helm_chart_path: [{ chart_name: "x" }] }), [["CNF_BAD_PARAM", "additionalParams.helm_chart_path[0]"]]],
    ["a helm_parameters key that is no value path", tgz({ helm_parameters: { "a..b": 1 } }), [["CNF_BAD_PARAM", "additionalParams.helm_parameters.a..b"]]],
    ["a release name that is no DNS label", tgz({ helm_release_name: "Web_1" }), [["CNF_BAD_PARAM", "additionalParams.helm_release_name"]]],
    [
      "charts and manifests together",
      tgz({ "lcm-kubernetes-def-files": ["Files/kubernetes/x.yaml"] }),
      [["CNF_HELM_WITH_MANIFESTS", "additionalParams.lcm-kubernetes-def-files"]],
    ],
  ] as const) {
    it(what, () => expect(codes(plan(params as Record<string, unknown>))).toEqual(expected));
  }

  it("a declared chart whose file is missing from the package", () => {
    const files = new Map(
      source
        .list()
        .filter((f) => f !== HELM_CHART_TGZ)
        .map((f) => [f, source.read(f)!]),
    );
    expect(codes(plan(tgz(), { charts: new MemorySource("pkg", files) }))).toEqual([["CNF_CHART_MISSING", "additionalParams.helm_chart_path[0]"]]);
  });

  it("replicas outside vdu_profile through scale levels are refused", () => {
    expect(errors(plan(tgz(), { scaleLevels: { web_aspect: 3 } })).map((d) => d.code)).toEqual(["CNF_SCALE_LEVEL_OUT_OF_RANGE"]);
  });

  it("a directory source reads the same package", () => {
    expect(errors(plan(tgz(), { charts: new DirectorySource("helm-cnf", dir) }))).toEqual([]);
  });
});

describe("scale of a Helm CNF (ops/cnf planScale)", () => {
  const scale = (additionalParams: Record<string, unknown>) =>
    planScale({ model, flavourId: "simple", plan: plan(additionalParams), request: { aspectId: "web_aspect", type: "SCALE_OUT", numberOfSteps: 1 } });

  it("through helm_value_names: the next scale level and the Deployment's replicas 1 → 2", () => {
    const s = scale(tgz());
    expect(s.diagnostics).toEqual([]);
    expect(s.scaleLevels).toEqual({ web_aspect: 1 });
    expect(s.changes).toEqual([{ vduId: "WEB", kind: "Deployment", name: "web", from: 1, to: 2 }]);
  });

  it("a VDU that helm_value_names does not map cannot be scaled (the chart owns its count)", () => {
    expect(scale({ helm_chart_path: HELM_CHART_TGZ }).diagnostics.map((d) => d.code)).toEqual(["CNF_NOT_SCALABLE"]);
  });
});
