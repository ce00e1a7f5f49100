/**
 * pulumi-nfv's public API: what `import … from "pulumi-nfv"` gives. Every name here is covered by
 * semver; the modules behind them are not, and `exports` in package.json keeps them out of reach.
 *
 * A package becomes resources in three steps: `loadVnfPackage` (read, validate, plan), a VIM
 * (`OpenStackVim`, `KubernetesVim`, or `vimFromSpec` from a Tacker vim-config.yaml), and the
 * component that the plan names (`loaded.component`).
 */

import { redactSdkDebugLog } from "./components/sdk-debug-log";
import { skipSdkPromiseStacks } from "./components/sdk-promise-stacks";

// Before a program using the components registers anything: the Pulumi SDK's debug messages would
// carry every secret of their resources into the engine's event log (components/sdk-debug-log.ts),
// and its promise wrapper would format a stack trace that no one reads for each of its promises
// (components/sdk-promise-stacks.ts).
redactSdkDebugLog();
skipSdkPromiseStacks();

// Package → model → plan.
export { loadVnfPackage, type LoadVnfPackageOptions, type LoadedVnfPackage } from "./translators/load-vnf-package";
export { DiagnosticError, formatDiagnostic, type Diagnostic, type Severity, type SourceLocation } from "./translators/diagnostics";
export type { ComponentGraph, ComponentKind, GraphEdge, GraphNode } from "./translators/graph/types";
export { renderDot } from "./translators/graph/render-dot";
export { renderMermaid } from "./translators/graph/render-mermaid";
export type { Flavour, VnfModel } from "./translators/tosca/model";
export type { ReadPackage } from "./translators/tosca/phase1-read/read-package";
export type { PackageSource } from "./translators/tosca/phase1-read/package-source";
export { manifestReader, type ManifestReader } from "./translators/kubernetes/manifests";
export { loadNsPackage, type ConstituentSource, type LoadedNsPackage } from "./translators/load-ns-package";
export type { NsFlavour, NsModel, NsVirtualLink, NsVnf } from "./translators/ns/model";
export type { Constituent, NsPlan, PlannedConstituent, VimKind } from "./translators/ns/plan-ns";

// Tacker's files, read as Tacker takes them.
export { parseVimConfig, readVimConfigFile, type KubernetesVimSpec, type OpenStackVimSpec, type VimSpec } from "./translators/tacker/vim-config";
export {
  applyExtConnChange,
  readChangeExtConnRequest,
  readInstantiateRequest,
  type ChangeExtVnfConnectivityRequest,
  type ExtVirtualLink,
  type ExtManagedVirtualLink,
  type InstantiateVnfRequest,
  type InstantiateRequestResult,
} from "./translators/tacker/instantiate-request";

// VIMs.
export { OpenStackVim, type OpenStackVimArgs } from "./components/vim/openstack-vim";
export { KubernetesVim, type KubernetesVimArgs } from "./components/vim/kubernetes-vim";
export { vimFromSpec, type VimFromSpecOptions } from "./components/vim/from-spec";
export type { TackerVimRecord } from "./components/vim/vim-record";
export type { ServerPlacement, ServerPlacementSource } from "./components/vim/server-placement";

// Components.
export { VmVnf, type VmVnfArgs, type VnfcInfo } from "./components/vnf/vm-vnf";
export { LCM_OPERATIONS, type LcmOperation, type ServerGroupPolicy } from "./components/vnf/plan";
export type { HookCommand, HookFile, HookScript, SshArgs } from "./components/vnf/hooks";
export { ContainerizedVnf, type ContainerizedVnfArgs, type CnfObjectRef, type CnfService } from "./components/cnf/containerized-vnf";
export type { VnfcRef } from "./translators/kubernetes/plan";
export {
  PrivateRegistry,
  type PrivateRegistryArgs,
  type RegistryConnectionInfo,
  type RegistryHostArgs,
  type RegistryVnfArgs,
} from "./components/registry/private-registry";
export { K8sCluster, type K8sClusterArgs, type K8sVersions } from "./components/k8s-cluster/k8s-cluster";
export type { ClusterServerGroups } from "./components/k8s-cluster/plan";
export { MagnumCluster, type MagnumClusterArgs } from "./components/k8s-cluster/magnum-cluster";
export { NetworkService, type ConstituentArgs, type NetworkServiceArgs } from "./components/ns/network-service";
export { ControlPlane, type ControlPlaneArgs } from "./components/openstack-control-plane/control-plane";
export { SERVICES as CONTROL_PLANE_SERVICES, type Service as ControlPlaneService } from "./components/openstack-control-plane/services";
export type { ImageSource } from "./components/openstack-control-plane/images";

// What runs on hosts, for review before it does: the registry's install script, the directory of the Kubernetes node scripts.
export { INSTALL_SCRIPT as REGISTRY_INSTALL_SCRIPT } from "./components/registry/private-registry";
export { SCRIPTS_DIR as K8S_NODE_SCRIPTS_DIR } from "./components/k8s-cluster/node-commands";
