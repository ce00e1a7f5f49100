export { VmVnf, type VmVnfArgs, type VnfcInfo } from "./vm-vnf";
export {
  planVmVnf,
  LCM_OPERATIONS,
  type LcmOperation,
  type PlanOptions,
  type VmVnfPlan,
  type PlannedVnfc,
  type PlannedPort,
  type PlannedNetwork,
  type PlannedVdu,
} from "./plan";
