/**
 * Input 3: SOL001 VDUs whose sw_image_data is a container image and that no manifest realises
 * (a VNF defined here: web with an external CP, cache scaled by an aspect, probe as a bare Pod).
 */
import { describe, expect, it } from "vitest";
import { paramsConfigMapName } from "../../../translators/kubernetes/container-vdu";
import { planCnf } from "../../../translators/kubernetes/plan";
import { containerVduModel } from "../../fixtures/cnf/models";
import { errors, kindsAndNames, warnings } from "./helpers";

const ID = "inst-0001";
const LABEL = { tacker_vnf_instance_id: ID };
const params = {
  container_vdus: { WEB: { ports: ["80:8080"], service_type: "NodePort" }, PROBE: { pod: true } },
  log_level: "debug",
  peers: ["a", "b"],
};
const base = { model: containerVduModel(), flavourId: "default", vnfInstanceId: ID, additionalParams: params };
const cm = paramsConfigMapName(ID);

describe("container VDUs", () => {
  for (const [level, web] of [
    ["small", 2],
    ["large", 4],
  ] as const) {
    it(`level ${level}: web has ${web} replicas; cache is HPA-owned; probe is a bare Pod`, () => {
      const plan = planCnf({ ...base, instantiationLevelId: level });
      expect(errors(plan)).toEqual([]);
      expect(warnings(plan)).toEqual([]);
      expect(kindsAndNames(plan)).toEqual([
        `ConfigMap/${cm}`,
        "Service/web",
        "Deployment/web",
        "Deployment/cache",
        "Pod/probe",
        "HorizontalPodAutoscaler/cache",
      ]);
      const [config, service, deployment, cache, probe, hpa] = plan.objects.map((p) => p.object);
      expect(config).toEqual({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: cm, labels: LABEL }, data: { log_level: "debug", peers: '["a","b"]' } });
      const pods = { vdu_name: "web", ...LABEL };
      expect(service).toEqual({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web", labels: { vdu_name: "web", ...LABEL }, annotations: { "nfv.pulumi.io/cps": "WEB_CP1" } },
        spec: { selector: pods, ports: [{ name: "80", port: 80, targetPort: 8080, protocol: "TCP" }], type: "NodePort" },
      });
      expect(deployment).toEqual({
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "web", labels: { vdu_name: "web", ...LABEL } },
        spec: {
          replicas: web,
          selector: { matchLabels: pods },
          template: {
            metadata: { labels: pods },
            spec: {
              containers: [
                {
                  name: "web",
                  image: "registry.example/web:1.2.3",
                  ports: [{ containerPort: 8080, protocol: "TCP" }],
                  envFrom: [{ configMapRef: { name: cm } }],
                  resources: { requests: { cpu: "1", memory: "512Mi" }, limits: { cpu: "1", memory: "512Mi" } },
                },
              ],
            },
          },
        },
      });
      // The HPA/replicas rule: cache is scaled by an aspect, so an HPA owns it and it has no replicas.
      expect(cache.spec).not.toHaveProperty("replicas");
      expect((cache.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image).toBe(
        "registry.example/cache@sha256:0123",
      );
      expect(hpa).toEqual({
        apiVersion: "autoscaling/v2",
        kind: "HorizontalPodAutoscaler",
        metadata: { name: "cache", labels: LABEL },
        spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "cache" }, minReplicas: 1, maxReplicas: 3 },
      });
      expect(probe).toEqual({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "probe", labels: { vdu_name: "probe", ...LABEL } },
        spec: {
          containers: [
            {
              name: "probe",
              image: "busybox:1.36",
              envFrom: [{ configMapRef: { name: cm } }],
              resources: { requests: { memory: "64Mi" }, limits: { memory: "64Mi" } },
            },
          ],
        },
      });
      expect(plan.vnfcs).toEqual({
        WEB: { vduId: "WEB", kind: "Deployment", name: "web", labelSelector: `vdu_name=web,tacker_vnf_instance_id=${ID}`, replicas: web },
        CACHE: { vduId: "CACHE", kind: "Deployment", name: "cache", labelSelector: `vdu_name=cache,tacker_vnf_instance_id=${ID}`, hpa: "cache" },
        PROBE: {
          vduId: "PROBE",
          kind: "Pod",
          name: "probe",
          fieldSelector: "metadata.name=probe",
          labelSelector: `vdu_name=probe,tacker_vnf_instance_id=${ID}`,
        },
      });
    });
  }

  it("a manifest named like the VDU wins over its container image", () => {
    const m = containerVduModel();
    m.kubernetesManifests = ["Files/kubernetes/web.yaml"];
    const web =
      "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  serviceName: web\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: w, image: 'w:1'}]}\n";
    const plan = planCnf({
      ...base,
      model: m,
      additionalParams: { ...params, "lcm-kubernetes-def-files": ["Files/kubernetes/web.yaml"] },
      manifests: { read: (p) => (p === "Files/kubernetes/web.yaml" ? web : undefined) },
    });
    expect(errors(plan)).toEqual([]);
    expect(plan.vnfcs.WEB).toMatchObject({ kind: "StatefulSet", name: "web", replicas: 2 });
    expect(kindsAndNames(plan)).not.toContain("Deployment/web");
  });

  it("asks for a pinned image, ports for a Service, and at most one instance for a bare Pod", () => {
    const m = containerVduModel();
    const web = m.flavours[0].vdus[0];
    if (web.kind === "compute") web.swImage!.version = "";
    const plan = planCnf({ ...base, model: m, additionalParams: { container_vdus: { WEB: { pod: true } } } });
    expect(plan.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual([
      "warning CNF_IMAGE_UNPINNED",
      "error CNF_SERVICE_NO_PORTS",
      "error CNF_BARE_POD_NOT_ALLOWED",
    ]);
    expect(errors(plan)[0].message).toBe(
      "VDU `WEB` has external CP(s) `WEB_CP1`, so it gets a Service, but no ports: set additionalParams.container_vdus.WEB.ports",
    );
    expect(errors(plan)[0].file).toBe("Definitions/web_df_default.yaml");
  });
});
