/**
 * `helm.v4.Chart` under Pulumi mocks. The mock monitor refuses `transforms` ("The Pulumi CLI does
 * not support transforms"), so importing this module replaces the Chart class behind
 * @pulumi/kubernetes's lazy `helm.v4.Chart` with a component of the same type that records its
 * arguments and options. It proves what a program asks for, not that the provider renders the chart.
 */
import * as pulumi from "@pulumi/pulumi";
import * as chartModule from "@pulumi/kubernetes/helm/v4/chart";

/** Every Chart constructed since the test last emptied it. */
export const charts: { name: string; args: Record<string, unknown>; opts: pulumi.ComponentResourceOptions }[] = [];

/**
 * What the next Charts' `resources` hold, by chart name (default none): a test sets it to stand for
 * the objects the provider would render.
 */
export const chartResources = new Map<string, { kind: string; name: string; spec?: unknown }[]>();

class RecordingChart extends pulumi.ComponentResource {
  /** As the provider's Chart: its objects (there, Kubernetes resources whose fields are outputs). */
  readonly resources: pulumi.Output<{ kind: string; metadata: { name: string }; spec?: unknown }[]>;
  constructor(name: string, args: Record<string, unknown>, opts: pulumi.ComponentResourceOptions) {
    super("kubernetes:helm.sh/v4:Chart", name, {}, { ...opts, transforms: undefined });
    charts.push({ name, args, opts });
    this.resources = pulumi.output((chartResources.get(name) ?? []).map((o) => ({ kind: o.kind, metadata: { name: o.name }, spec: o.spec })));
  }
}
(chartModule as { Chart: unknown }).Chart = RecordingChart;
