export { K8sCluster, type K8sClusterArgs, type K8sVersions } from "./k8s-cluster";
export { planK8sCluster, type K8sClusterPlan, type PlannedNode, type PlanInput, type Role } from "./plan";
export {
  readK8sClusterInstallation,
  readK8sClusterParamFile,
  K8S_PARAM_KEY,
  type K8sClusterInstallation,
  type MasterParams,
  type NodeParams,
  type ProxyParams,
  type RegistryConnection,
} from "./params";
export { SCRIPTS_DIR, REMOTE_SCRIPTS } from "./node-commands";
export { MagnumCluster, type MagnumClusterArgs } from "./magnum-cluster";
