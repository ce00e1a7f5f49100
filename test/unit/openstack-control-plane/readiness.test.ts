/**
 * readiness.ts: the charts' waiting objects created without Pulumi waiting on them, and what each
 * chart's gate waits for instead (its Jobs succeeded, a Ready pod of each workload), as
 * kubernetes-entrypoint reads it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { gateDependencies, gateEnv, skipAwait, type ChartObject } from "../../../components/openstack-control-plane/readiness";

const transform = (type: string, props: Record<string, unknown>) =>
  skipAwait({ type, name: "x", props, opts: {}, custom: true } as pulumi.ResourceTransformArgs) as { props: Record<string, unknown> } | undefined;

describe("skipAwait", () => {
  it("annotates Jobs, workloads and Services, keeping their annotations; leaves ConfigMaps and Secrets as they are", () => {
    for (const type of [
      "kubernetes:batch/v1:Job",
      "kubernetes:apps/v1:Deployment",
      "kubernetes:apps/v1:StatefulSet",
      "kubernetes:apps/v1:DaemonSet",
      "kubernetes:core/v1:Service",
    ]) {
      const out = transform(type, { metadata: { name: "a", annotations: { keep: "me" } }, spec: { x: 1 } });
      expect(out?.props, type).toEqual({ metadata: { name: "a", annotations: { keep: "me", "pulumi.com/skipAwait": "true" } }, spec: { x: 1 } });
    }
    expect(transform("kubernetes:batch/v1:Job", {})?.props).toEqual({ metadata: { annotations: { "pulumi.com/skipAwait": "true" } } });
    expect(transform("kubernetes:core/v1:ConfigMap", { metadata: { name: "glance-bin" } })).toBeUndefined();
    expect(transform("kubernetes:core/v1:Secret", { metadata: { name: "glance-etc" } })).toBeUndefined();
  });
});

describe("the gate of a chart", () => {
  const objects: ChartObject[] = [
    { kind: "ConfigMap", name: "glance-bin" },
    { kind: "Job", name: "glance-db-sync" },
    { kind: "Job", name: "glance-db-init" },
    { kind: "Deployment", name: "glance-api", spec: { selector: { matchLabels: { application: "glance", component: "api", release_group: "glance" } } } },
    { kind: "DaemonSet", name: "nova-compute-default", spec: { selector: { matchLabels: { application: "nova", component: "compute" } } } },
    { kind: "Service", name: "glance-api" },
  ];

  it("waits for every Job of the chart and a Ready pod of each workload, by its selector", () => {
    const { jobs, pods } = gateDependencies(objects);
    expect(jobs).toEqual(["glance-db-init", "glance-db-sync"]);
    expect(pods).toEqual([
      { application: "glance", component: "api", release_group: "glance" },
      { application: "nova", component: "compute" },
    ]);
  });

  it("its revision changes with any Job's or workload's spec, not with their order or the chart's other objects", () => {
    const { revision } = gateDependencies(objects);
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    expect(gateDependencies([...objects].reverse()).revision).toBe(revision);
    const withSpec = (name: string, spec: unknown) => objects.map((o) => (o.name === name && o.kind !== "Service" ? { ...o, spec } : o));
    expect(gateDependencies(withSpec("glance-bin", { data: "other" })).revision).toBe(revision);
    expect(
      gateDependencies(
        withSpec("glance-api", {
          selector: { matchLabels: { application: "glance" } },
          template: { metadata: { annotations: { "configmap-etc-hash": "new" } } },
        }),
      ).revision,
    ).not.toBe(revision);
    expect(gateDependencies(withSpec("glance-db-sync", { template: { spec: { containers: [{ image: "new" }] } } })).revision).not.toBe(revision);
    expect(gateDependencies(objects.filter((o) => o.name !== "glance-db-init")).revision).not.toBe(revision);
  });

  it("as kubernetes-entrypoint's environment: the Jobs as namespace:name, the pods as DEPENDENCY_POD_JSON on any node", () => {
    const env = Object.fromEntries(gateEnv("openstack", gateDependencies(objects)).map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env.DEPENDENCY_JOBS).toBe("openstack:glance-db-init,openstack:glance-db-sync");
    expect(JSON.parse(env.DEPENDENCY_POD_JSON as string)).toEqual([
      { namespace: "openstack", labels: { application: "glance", component: "api", release_group: "glance" }, requireSameNode: false },
      { namespace: "openstack", labels: { application: "nova", component: "compute" }, requireSameNode: false },
    ]);
    expect(env.NAMESPACE).toEqual({ fieldRef: { fieldPath: "metadata.namespace" } });
    expect(env.POD_NAME).toEqual({ fieldRef: { fieldPath: "metadata.name" } });
  });

  it("a chart without Jobs (memcached) waits for its pods only", () => {
    const env = Object.fromEntries(
      gateEnv(
        "openstack",
        gateDependencies([{ kind: "StatefulSet", name: "memcached-memcached", spec: { selector: { matchLabels: { application: "memcached" } } } }]),
      ).map((e) => [e.name, e.value]),
    );
    expect(env.DEPENDENCY_JOBS).toBe("");
    expect(JSON.parse(env.DEPENDENCY_POD_JSON as string)).toHaveLength(1);
  });
});
