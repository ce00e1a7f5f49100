/**
 * ContainerizedVnf with a Helm chart under Pulumi mocks: one `helm.v4.Chart` per release, named
 * from the component, with the chart's files written to a local path the provider reads, the
 * values and namespace of the plan; the instance label transform; nothing registered on a bad
 * request. Proves what the program asks for, not that the provider renders the chart (the lab
 * integration test does).
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { instanceLabelTransform } from "../../../components/cnf/helm-release";
import type { VnfModel } from "../../../translators/tosca/model";
import type { PackageSource } from "../../../translators/tosca/phase1-read/package-source";
import { openPackage } from "../../../translators/tosca/phase1-read/read-package";
import { translateRead } from "../../../translators/tosca/translate";
import { HELM_CHART_TGZ, helmCnfPackage } from "../../fixtures/helm-cnf-package";
import { installMocks, settle, type Registered } from "../helpers/pulumi-mocks";
import { charts } from "../helpers/recording-chart";
import { thrown } from "./helpers";

let registered: Registered[];
let cnf: typeof import("../../../components/cnf");
let vim: typeof import("../../../components/vim");
let dir = "";
let model: VnfModel;
let source: PackageSource;

beforeAll(async () => {
  registered = installMocks();
  cnf = await import("../../../components/cnf");
  vim = await import("../../../components/vim");
  dir = helmCnfPackage();
  const pkg = await openPackage(dir);
  model = translateRead(pkg).model!;
  source = pkg.source;
});
afterEach(async () => {
  await settle();
  registered.length = 0;
  charts.length = 0;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a";
const params = {
  helm_chart_path: [{ chart_file: HELM_CHART_TGZ }],
  helm_release_name: "web",
  helm_parameters: { "image.tag": "1.2.4" },
  helm_value_names: { WEB: { replica: "replicaCount" } },
  namespace: "cnf",
};

describe("ContainerizedVnf with a Helm chart", () => {
  it("registers one helm.v4.Chart, named from the component, with the chart as a local archive of the package's bytes, the values and the namespace", async () => {
    const edge = new vim.KubernetesVim("edge", { authUrl: "https://192.0.2.10:6443", bearerToken: "tok", sslCaCert: "None", projectName: "nfv" });
    const c = new cnf.ContainerizedVnf("web", {
      vim: edge,
      model,
      flavourId: "simple",
      instantiationLevelId: "large",
      additionalParams: params,
      vnfInstanceId: ID,
      packageSource: source,
      refuseAdoption: false,
    });
    await settle();
    expect(charts.map((r) => r.name)).toEqual(["web-helm-web"]);
    const { args, opts } = charts[0];
    expect({ name: args.name, values: args.values }).toEqual({ name: "web", values: { image: { tag: "1.2.4" }, replicaCount: 3 } });
    expect(await new Promise((r) => pulumi.output(args.namespace as pulumi.Input<string>).apply(r))).toBe("cnf");
    const chart = args.chart as string;
    expect(chart.endsWith(`/${HELM_CHART_TGZ}`)).toBe(true);
    expect(existsSync(chart) && readFileSync(chart).equals(source.read(HELM_CHART_TGZ)!)).toBe(true);
    expect(opts.parent).toBe(c);
    expect((opts.providers as Record<string, pulumi.ProviderResource>).kubernetes).toBe(edge.provider);
    expect(opts.transforms).toHaveLength(1);
    expect(Object.keys(c.helmReleases)).toEqual(["helm-web"]);
    // No other child: the chart's objects are the provider's to render.
    expect(registered.filter((r) => r.name.startsWith("web-")).map((r) => r.type)).toEqual(["kubernetes:helm.sh/v4:Chart"]);
  });

  it("a bad request (helm_value_names naming an unknown VDU) throws one error and registers nothing", () => {
    const e = thrown(
      () =>
        new cnf.ContainerizedVnf("bad", {
          vim: { namespace: "default" },
          model,
          flavourId: "simple",
          additionalParams: { ...params, helm_value_names: { VDU9: { replica: "replicaCount" } } },
          vnfInstanceId: ID,
          packageSource: source,
        }),
    );
    expect(e.diagnostics.map((d) => d.code)).toEqual(["CNF_HELM_UNKNOWN_VDU"]);
    expect(registered.filter((r) => r.name.startsWith("bad"))).toEqual([]);
  });

  it("a chart path with no package files given is refused before anything is registered", () => {
    const e = thrown(
      () => new cnf.ContainerizedVnf("nofiles", { vim: { namespace: "default" }, model, flavourId: "simple", additionalParams: params, vnfInstanceId: ID }),
    );
    expect(e.diagnostics.map((d) => [d.code, d.path])).toEqual([["CNF_BAD_PARAM", "additionalParams.helm_chart_path"]]);
  });
});

describe("instanceLabelTransform", () => {
  const t = instanceLabelTransform("i-1");
  const opts = {} as pulumi.ResourceOptions;
  it("labels a rendered Deployment and its pod template, keeping their labels", async () => {
    const r = await t({
      type: "kubernetes:apps/v1:Deployment",
      name: "x",
      custom: true,
      opts,
      props: { metadata: { name: "web", labels: { a: "1" } }, spec: { replicas: 2, template: { metadata: { labels: { app: "web" } } } } },
    });
    expect(r?.props).toEqual({
      metadata: { name: "web", labels: { a: "1", tacker_vnf_instance_id: "i-1" } },
      spec: { replicas: 2, template: { metadata: { labels: { app: "web", tacker_vnf_instance_id: "i-1" } } } },
    });
  });
  it("leaves the Chart component itself and other packages' resources alone", async () => {
    expect(await t({ type: "kubernetes:helm.sh/v4:Chart", name: "x", custom: false, opts, props: {} })).toBeUndefined();
    expect(await t({ type: "random:index:RandomId", name: "x", custom: true, opts, props: {} })).toBeUndefined();
  });
});
