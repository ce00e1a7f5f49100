/**
 * pulumi-nfv example: a CNF of our own (package/, a Helm chart) on a Kubernetes VIM. The VIM and
 * the request are Tacker's own files, as an operator has them; the chart is rendered by the
 * kubernetes provider (no helm binary), its values from the request's helm_parameters and the
 * instantiation level's replicas.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { ContainerizedVnf, formatDiagnostic, KubernetesVim, loadVnfPackage, readVimConfigFile, vimFromSpec } from "pulumi-nfv";

const config = new pulumi.Config();

/** A VNF instance id of this stack's own, stable across runs (Tacker gives one at instance creation). */
function instanceId(): string {
  const h = createHash("sha256").update(`${pulumi.getProject()}/${pulumi.getStack()}/web`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export = async () => {
  // Read, validate and plan the package with the request: every error names its file and line.
  // The instance id names what Tacker names from it (a Helm release without helm_release_name).
  const vnfInstanceId = config.get("vnfInstanceId") ?? instanceId();
  const loaded = await loadVnfPackage(path.join(__dirname, "package"), config.require("instantiateRequest"), { vnfInstanceId });
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !loaded.model || !loaded.request) throw new Error(errors.map(formatDiagnostic).join("\n"));
  if (loaded.component !== "container-vnf") throw new Error(`the package plans a ${loaded.component}, not a CNF`);

  // Offline (a preview in CI from a checkout: no cluster, no credentials), the manifests are only
  // written to a directory; else the VIM is Tacker's file.
  const render = config.get("renderYamlToDirectory");
  const vimConfig = config.get("vimConfig");
  if ((render === undefined) === (vimConfig === undefined)) throw new Error("set one of vimConfig (Tacker's vim-config.yaml) and renderYamlToDirectory");
  const vim =
    vimConfig !== undefined
      ? vimFromSpec("vim", readVimConfigFile(vimConfig).spec)
      : new KubernetesVim("vim", { authUrl: "https://kubernetes.invalid", renderYamlToDirectory: path.resolve(render!) });
  if (!(vim instanceof KubernetesVim)) throw new Error("vimConfig must be a Kubernetes VIM");

  const cnf = new ContainerizedVnf("web", {
    vim,
    model: loaded.model,
    flavourId: loaded.request.flavourId,
    instantiationLevelId: loaded.request.instantiationLevelId,
    additionalParams: loaded.request.additionalParams,
    vnfInstanceId,
    packageSource: loaded.pkg.source,
    // A scale of web_aspect, as Tacker's ScaleVnfRequest would make it: `pulumi config set scaleLevel 1`.
    scaleLevels: { web_aspect: config.getNumber("scaleLevel") ?? 0 },
    // Before creating anything, refuse objects of the same names that this instance did not make (a cluster is needed to ask).
    refuseAdoption: render === undefined,
  });
  return { namespace: cnf.namespace, vnfcs: cnf.vnfcs, services: cnf.services, vim: vim.vimRecord };
};
