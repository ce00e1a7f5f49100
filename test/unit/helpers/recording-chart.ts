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

class RecordingChart extends pulumi.ComponentResource {
  constructor(name: string, args: Record<string, unknown>, opts: pulumi.ComponentResourceOptions) {
    super("kubernetes:helm.sh/v4:Chart", name, {}, { ...opts, transforms: undefined });
    charts.push({ name, args, opts });
  }
}
(chartModule as { Chart: unknown }).Chart = RecordingChart;
