/**
 * The Kubernetes cluster tests' inputs: Tacker's kubernetes_vnf_package with upstream Tacker's
 * one-line fix (test/fixtures/kubernetes-package.ts) and the seed's param file.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { translatePackage } from "../../../translators/tosca/translate";
import type { VnfModel } from "../../../translators/tosca/model";
import { kubernetesPackage } from "../../fixtures/kubernetes-package";

export const K8S_PACKAGE = kubernetesPackage();
/** Also the "package directory" of tests that need package files (a registry CA under Files/). */
export const K8S_FIXTURES = path.join(__dirname, "../../fixtures/k8s-cluster");
export const SEED_FILE = path.join(K8S_FIXTURES, "private_registry_kubernetes_param_file.json");

export function seedRequestText(): string {
  return readFileSync(SEED_FILE, "utf8");
}

export async function k8sModel(): Promise<VnfModel> {
  const r = await translatePackage(K8S_PACKAGE);
  if (!r.model) throw new Error(`cannot translate kubernetes_vnf_package: ${JSON.stringify(r.diagnostics)}`);
  return r.model;
}
