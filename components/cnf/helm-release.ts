/**
 * One planned Helm release → a `helm.v4.Chart` on the VIM's provider. The provider renders the
 * chart itself (no helm binary) from a local path, so the chart's package files are written once
 * to a directory named by the hash of their contents: the same for a package directory or a zip,
 * and a changed chart gets a new path (and so a new render) while an unchanged one keeps its own.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { ChartReader, HelmReleasePlan } from "../../translators/kubernetes/helm";
import { INSTANCE_LABEL } from "../../translators/kubernetes/labels";

/** Writes the chart's files under a content-addressed directory; returns the chart's local path. */
export function materializeChart(release: HelmReleasePlan, source: ChartReader): string {
  const hash = createHash("sha256");
  const contents = release.chartFiles.map((f) => {
    const c = source.read(f);
    if (c === undefined) throw new Error(`chart file ${f} is not in the package`);
    hash.update(f).update("\0").update(c).update("\0");
    return [f, c] as const;
  });
  const root = join(tmpdir(), `nfv-helm-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(root)) {
    // Written beside, then renamed into place: a process that finds the directory finds it whole.
    const staging = mkdtempSync(join(tmpdir(), "nfv-helm-staging-"));
    for (const [f, c] of contents) {
      mkdirSync(dirname(join(staging, f)), { recursive: true });
      writeFileSync(join(staging, f), c);
    }
    try {
      renameSync(staging, root);
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(root)) throw e;
    }
  }
  return join(root, release.chartFile);
}

/**
 * Puts the instance label on every rendered object and on the pod templates of workloads, as the
 * component labels the objects it plans (pods are the VNFCs and are selected by it).
 */
export function instanceLabelTransform(instanceId: string): pulumi.ResourceTransform {
  return ({ props, opts, type }) => {
    if (!type.startsWith("kubernetes:") || type.startsWith("kubernetes:helm.sh/")) return undefined;
    const p = props as { metadata?: { labels?: Record<string, string> }; spec?: { template?: { metadata?: { labels?: Record<string, string> } } } };
    const metadata = { ...(p.metadata ?? {}), labels: { ...(p.metadata?.labels ?? {}), [INSTANCE_LABEL]: instanceId } };
    const template = p.spec?.template;
    const spec = template
      ? {
          ...p.spec,
          template: { ...template, metadata: { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [INSTANCE_LABEL]: instanceId } } },
        }
      : p.spec;
    return { props: { ...props, metadata, ...(spec ? { spec } : {}) }, opts };
  };
}

/** Registers one release: `<component>-helm-<release>`, in the component's namespace. */
export function registerRelease(
  name: string,
  release: HelmReleasePlan,
  chartPath: string,
  namespace: pulumi.Input<string>,
  instanceId: string,
  opts: pulumi.ComponentResourceOptions,
): k8s.helm.v4.Chart {
  return new k8s.helm.v4.Chart(
    `${name}-${release.key}`,
    { chart: chartPath, name: release.releaseName, namespace, values: release.values },
    { ...opts, transforms: [instanceLabelTransform(instanceId)] },
  );
}
