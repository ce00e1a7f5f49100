/**
 * Helm CNFs: Tacker's `additionalParams` for a package whose Kubernetes artifacts are charts →
 * one planned Helm release per chart. The chart is rendered by the provider at deploy time, so the
 * plan holds no objects for it: it holds what the release is made from (the chart's package
 * files) and its values (`helm_parameters` plus each VDU's replicas through `helm_value_names`).
 *
 * Keys: `helm_chart_path` (Tacker v2: one package path; or a list of `{chart_file, chart_name?}`),
 * `helm_release_name`, `helm_parameters` (`{key: value}`, keys as `--set` paths such as
 * `service.port`), `helm_value_names` (`{<VDU id>: {replica: <value path>}}`).
 * A chart is a `.tgz` or a chart directory under `Files/kubernetes/`, declared in the package
 * (TOSCA.meta or an artifact; for a directory, its `Chart.yaml`), read through the package source.
 *
 * Codes: CNF_BAD_PARAM, CNF_CHART_UNKNOWN, CNF_CHART_NOT_DECLARED, CNF_CHART_MISSING, CNF_HELM_UNKNOWN_VDU,
 * CNF_HELM_WITH_MANIFESTS.
 */
import type { DiagnosticBag, SourceLocation } from "../diagnostics";
import type { Flavour } from "../tosca/model";
import { dnsLabel, shortHash } from "./objects";

export const HELM_CHART_PATH_PARAM = "helm_chart_path";

/** Package files as the Helm planner reads them (a package source: directory, zip or memory). */
export interface ChartReader {
  /** Every file of the package, package-relative. */
  list(): string[];
  /** Contents, or undefined when the file is not in the package. */
  read(path: string): Buffer | string | undefined;
}

/** One Helm release to install. */
export interface HelmReleasePlan {
  /** Pulumi child-name suffix: `helm-<release name>`. */
  key: string;
  releaseName: string;
  /** Package path of the `.tgz` or of the chart directory. */
  chartFile: string;
  /** The package files that make up the chart (the archive, or every file under the directory). */
  chartFiles: string[];
  /** Chart values: `helm_parameters`, then the replicas of each VDU of `helm_value_names`. */
  values: Record<string, unknown>;
  /** The `helm_chart_path` entry, for messages. */
  where: SourceLocation;
}

interface ChartRef {
  file: string;
  name?: string;
  where: SourceLocation;
}

/** True when the request asks for Helm (`helm_chart_path` is present). */
export function usesHelm(params: Record<string, unknown>): boolean {
  return params[HELM_CHART_PATH_PARAM] !== undefined && params[HELM_CHART_PATH_PARAM] !== null;
}

/** `helm_chart_path` as chart references; malformed entries are reported and dropped. */
function chartRefs(raw: unknown, bag: DiagnosticBag): ChartRef[] {
  const path = `additionalParams.${HELM_CHART_PATH_PARAM}`;
  if (typeof raw === "string" && raw !== "") return [{ file: raw, where: { path } }];
  if (!Array.isArray(raw) || raw.length === 0) {
    bag.error("CNF_BAD_PARAM", "must be a package path of a chart, or a non-empty list of {chart_file, chart_name}", { path });
    return [];
  }
  const out: ChartRef[] = [];
  raw.forEach((e, i) => {
    const where = { path: `${path}[${i}]` };
    const o = e && typeof e === "object" && !Array.isArray(e) ? (e as Record<string, unknown>) : undefined;
    if (!o || typeof o.chart_file !== "string" || o.chart_file === "")
      bag.error("CNF_BAD_PARAM", "needs `chart_file`, the package path of a .tgz or chart directory", where);
    else if (o.chart_name !== undefined && (typeof o.chart_name !== "string" || o.chart_name === ""))
      bag.error("CNF_BAD_PARAM", "`chart_name` must be a non-empty string", { path: `${where.path}.chart_name` });
    else out.push({ file: o.chart_file, ...(typeof o.chart_name === "string" ? { name: o.chart_name } : {}), where });
  });
  return out;
}

/** Checks that a chart is a declared artifact present in the package; returns its files. */
function chartFilesOf(ref: ChartRef, declared: readonly string[], reader: ChartReader, bag: DiagnosticBag): string[] | undefined {
  const file = ref.file.replace(/^\.\//, "").replace(/\/+$/, "");
  const isArchive = /\.(tgz|tar\.gz)$/.test(file);
  const declaredOk = isArchive ? declared.includes(file) : declared.includes(`${file}/Chart.yaml`);
  const inPackage = isArchive ? reader.list().includes(file) : reader.list().includes(`${file}/Chart.yaml`);
  if (!declaredOk && !inPackage) {
    bag.error("CNF_CHART_UNKNOWN", `\`${ref.file}\` is not a chart of the package: no ${isArchive ? "such file" : "Chart.yaml under it"}`, ref.where);
    return undefined;
  }
  if (!file.startsWith("Files/kubernetes/") || !declaredOk) {
    const charts = declared.filter((d) => /\.(tgz|tar\.gz)$/.test(d) || d.endsWith("/Chart.yaml")).map((d) => d.replace(/\/Chart\.yaml$/, ""));
    bag.error(
      "CNF_CHART_NOT_DECLARED",
      `\`${ref.file}\` is not a chart declared in the package under Files/kubernetes/ (a .tgz artifact, or a directory whose Chart.yaml is one; declared charts: ${charts.length ? charts.join(", ") : "none"})`,
      ref.where,
    );
    return undefined;
  }
  const files = isArchive ? [file] : reader.list().filter((f) => f.startsWith(`${file}/`));
  if (reader.read(isArchive ? file : `${file}/Chart.yaml`) === undefined) {
    bag.error("CNF_CHART_MISSING", `\`${ref.file}\` is declared in the package but ${isArchive ? "the file" : "its Chart.yaml"} is missing`, ref.where);
    return undefined;
  }
  return files;
}

/** `a.b.c: v` → `{a: {b: {c: v}}}` merged into `into` (Helm's `--set` paths, as Tacker passes them). */
function setPath(into: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let at = into;
  for (const p of parts.slice(0, -1)) {
    const next = at[p];
    at = (at[p] = next && typeof next === "object" && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  at[parts[parts.length - 1]] = value;
}

const VALUE_PATH = /^[A-Za-z_][-\w]*(\.[A-Za-z_][-\w]*)*$/;

/** The Helm releases of a request, or undefined when it names no chart. */
export function planHelmReleases(
  params: Record<string, unknown>,
  flavour: Flavour,
  replicas: (vduId: string) => number,
  instanceId: string,
  declared: readonly string[],
  reader: ChartReader | undefined,
  bag: DiagnosticBag,
): HelmReleasePlan[] {
  const refs = chartRefs(params[HELM_CHART_PATH_PARAM], bag);
  const values: Record<string, unknown> = {};
  const helmParameters = params.helm_parameters;
  if (helmParameters !== undefined) {
    if (!helmParameters || typeof helmParameters !== "object" || Array.isArray(helmParameters))
      bag.error("CNF_BAD_PARAM", "must be a mapping of chart value paths to values", { path: "additionalParams.helm_parameters" });
    else
      for (const [k, v] of Object.entries(helmParameters)) {
        if (VALUE_PATH.test(k)) setPath(values, k, v);
        else bag.error("CNF_BAD_PARAM", `\`${k}\` is not a chart value path (names joined by \`.\`)`, { path: `additionalParams.helm_parameters.${k}` });
      }
  }
  const valueNames = params.helm_value_names;
  if (valueNames !== undefined) {
    const path = "additionalParams.helm_value_names";
    if (!valueNames || typeof valueNames !== "object" || Array.isArray(valueNames))
      bag.error("CNF_BAD_PARAM", "must be a mapping {<VDU id>: {replica: <chart value path>}}", { path });
    else
      for (const [vduId, names] of Object.entries(valueNames as Record<string, unknown>)) {
        const replica = names && typeof names === "object" ? (names as Record<string, unknown>).replica : undefined;
        if (!flavour.vdus.some((v) => v.id === vduId))
          bag.error(
            "CNF_HELM_UNKNOWN_VDU",
            `VDU \`${vduId}\` is not in flavour \`${flavour.id}\` (VDUs: ${flavour.vdus.map((v) => v.id).join(", ") || "none"})`,
            { path: `${path}.${vduId}` },
          );
        else if (typeof replica !== "string" || !VALUE_PATH.test(replica))
          bag.error("CNF_BAD_PARAM", "`replica` must be the chart value path of the VDU's replica count", { path: `${path}.${vduId}.replica` });
        else setPath(values, replica, replicas(vduId));
      }
  }
  const releaseParam = params.helm_release_name;
  if (releaseParam !== undefined && (typeof releaseParam !== "string" || dnsLabel(releaseParam, 53) !== releaseParam)) {
    bag.error("CNF_BAD_PARAM", "must be a release name: lower-case letters, digits and `-`, at most 53", { path: "additionalParams.helm_release_name" });
  }
  const base = typeof releaseParam === "string" ? releaseParam : `vnf-${shortHash(instanceId)}`;
  if (refs.length && !reader) {
    bag.error("CNF_BAD_PARAM", `${HELM_CHART_PATH_PARAM} is given but no package files were provided to read the charts`, {
      path: `additionalParams.${HELM_CHART_PATH_PARAM}`,
    });
    return [];
  }
  const out: HelmReleasePlan[] = [];
  refs.forEach((ref, i) => {
    const chartFiles = chartFilesOf(ref, declared, reader!, bag);
    if (!chartFiles) return;
    // One chart: the release name as given; several: each suffixed with its chart name (or index).
    const releaseName = refs.length === 1 ? base : dnsLabel(`${base}-${ref.name ?? i}`, 53);
    out.push({
      key: `helm-${releaseName}`,
      releaseName,
      chartFile: ref.file.replace(/^\.\//, "").replace(/\/+$/, ""),
      chartFiles,
      values: structuredClone(values),
      where: ref.where,
    });
  });
  return out;
}
