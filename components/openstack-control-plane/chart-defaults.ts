import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { ChartDefaults } from "./chart-values";

/** The chart's own `values.yaml` (`<charts>/<chart>/values.yaml`), the parts values are derived from. */
export function readChartDefaults(chartDir: string): ChartDefaults {
  const file = path.join(chartDir, "values.yaml");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`${file}: cannot read the chart's values (${(e as NodeJS.ErrnoException).code ?? e}): is this an openstack-helm checkout?`);
  }
  const values = parse(text) as Record<string, unknown> | null;
  if (typeof values !== "object" || values === null) throw new Error(`${file}: not a YAML mapping`);
  const { images, labels, endpoints, manifests } = values as ChartDefaults;
  return { images, labels, endpoints, manifests };
}
