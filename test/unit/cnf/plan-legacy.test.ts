/**
 * Input 2: Tacker's legacy containerized TOSCA (the two shared samples, read by the real package
 * translator) → Deployment, ConfigMap, Service and autoscaling/v2 HPA per VDU, exactly.
 */
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { legacyObjectName } from "../../../translators/kubernetes/legacy";
import { planCnf } from "../../../translators/kubernetes/plan";
import type { VnfModel } from "../../../translators/tosca/model";
import { translatePackage } from "../../../translators/tosca/translate";
import { errors, kindsAndNames, LEGACY, warnings } from "./helpers";

const ID = "6a1b1a52-7f5c-4c1f-a1d3-0f0e6c5d4b3a";
const LABEL = { tacker_vnf_instance_id: ID };
let one: VnfModel;
let two: VnfModel;

beforeAll(async () => {
  const read = async (f: string) => {
    const r = await translatePackage(path.join(LEGACY, f));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    return r.model!;
  };
  one = await read("tosca-vnfd-containerized.yaml");
  two = await read("tosca-vnfd-containerized-two-containers.yaml");
});

describe("legacy containerized VNFD", () => {
  it("names objects `<vdu>-<hash of the instance id>`: stable across deploys, distinct per instance", () => {
    expect(legacyObjectName("VDU1", ID)).toBe("vdu1-" + legacyObjectName("x", ID).slice(2));
    expect(legacyObjectName("VDU1", ID)).toMatch(/^vdu1-[0-9a-f]{8}$/);
    expect(legacyObjectName("VDU1", ID)).toBe(legacyObjectName("VDU1", ID));
    expect(legacyObjectName("VDU1", "other")).not.toBe(legacyObjectName("VDU1", ID));
    expect(legacyObjectName("My_Vdu", ID)).toMatch(/^my-vdu-/);
  });

  it("one container with config and labels: ConfigMap + env, Service, Deployment without replicas, HPA v2", () => {
    const plan = planCnf({ model: one, flavourId: "default", vnfInstanceId: ID });
    expect(errors(plan)).toEqual([]);
    expect(warnings(plan)).toEqual([]);
    const name = legacyObjectName("VDU1", ID);
    expect(plan.namespace).toEqual({ namespace: "default", source: "manifests" });
    expect(plan.objects.map((p) => p.object)).toEqual([
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default", labels: LABEL }, data: { param0: "key1", param1: "key2" } },
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name, namespace: "default", labels: { vdu_name: name, ...LABEL } },
        spec: { ports: [{ name: "80", port: 80, targetPort: 80, protocol: "TCP" }], selector: { app: "webserver" }, type: "ClusterIP" },
      },
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name, namespace: "default", labels: { app: "webserver", ...LABEL } },
        spec: {
          selector: { matchLabels: { app: "webserver" } },
          template: {
            metadata: { labels: { app: "webserver", ...LABEL } },
            spec: {
              containers: [
                {
                  name: "web-server",
                  image: "k8s.gcr.io/hpa-example",
                  imagePullPolicy: "IfNotPresent",
                  ports: [{ containerPort: 80, protocol: "TCP" }],
                  env: [
                    { name: "param0", valueFrom: { configMapKeyRef: { name, key: "param0" } } },
                    { name: "param1", valueFrom: { configMapKeyRef: { name, key: "param1" } } },
                  ],
                  resources: { requests: { cpu: "200m", memory: "100000000" }, limits: { cpu: "200m", memory: "100000000" } },
                },
              ],
            },
          },
        },
      },
      {
        apiVersion: "autoscaling/v2",
        kind: "HorizontalPodAutoscaler",
        metadata: { name, namespace: "default", labels: LABEL },
        spec: {
          scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name },
          minReplicas: 1,
          maxReplicas: 10,
          metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } } }],
        },
      },
    ]);
    expect(plan.vnfcs).toEqual({ VDU1: { vduId: "VDU1", kind: "Deployment", name, namespace: "default", labelSelector: "app=webserver", hpa: name } });
  });

  it("two containers, no labels: `selector: <name>` labels, NodePort Service on both ports, no ConfigMap", () => {
    const plan = planCnf({ model: two, flavourId: "default", vnfInstanceId: ID, additionalParams: { namespace: "cnf" } });
    expect(errors(plan)).toEqual([]);
    const name = legacyObjectName("VDU1", ID);
    expect(kindsAndNames(plan)).toEqual([`Service/${name}`, `Deployment/${name}`, `HorizontalPodAutoscaler/${name}`]);
    const [service, deployment, hpa] = plan.objects.map((p) => p.object);
    expect(service.spec).toEqual({
      ports: [
        { name: "80", port: 80, targetPort: 80, protocol: "TCP" },
        { name: "88", port: 88, targetPort: 88, protocol: "TCP" },
      ],
      selector: { selector: name },
      type: "NodePort",
    });
    expect(deployment.metadata).toEqual({ name, namespace: "cnf", labels: { selector: name, ...LABEL } });
    expect(deployment.spec).toEqual({
      selector: { matchLabels: { selector: name } },
      template: {
        metadata: { labels: { selector: name, ...LABEL } },
        spec: {
          containers: [
            {
              name: "front-end",
              image: "nginx",
              imagePullPolicy: "IfNotPresent",
              ports: [{ containerPort: 80, protocol: "TCP" }],
              resources: { requests: { cpu: "500m", memory: "512000000" }, limits: { cpu: "500m", memory: "512000000" } },
            },
            {
              name: "rss-reader",
              image: "nickchase/rss-php-nginx:v1",
              imagePullPolicy: "IfNotPresent",
              ports: [{ containerPort: 88, protocol: "TCP" }],
              resources: { requests: { cpu: "500m", memory: "512000000" }, limits: { cpu: "500m", memory: "512000000" } },
            },
          ],
        },
      },
    });
    expect(hpa.spec).toMatchObject({ minReplicas: 1, maxReplicas: 3, metrics: [{ resource: { target: { averageUtilization: 40 } } }] });
    // additionalParams.namespace wins over the VDU's `namespace: default`, with a warning.
    expect(warnings(plan).map((d) => d.code)).toEqual(["CNF_NAMESPACE_OVERRIDDEN"]);
  });
});
