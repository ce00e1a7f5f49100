export { ContainerizedVnf, type ContainerizedVnfArgs, type CnfObjectRef, type CnfService } from "./containerized-vnf";
export { manifestReader, type ManifestReader } from "../../translators/kubernetes/manifests";
export { planCnf, planOrThrow, type CnfPlan, type CnfPlanInput, type VnfcRef } from "../../translators/kubernetes/plan";
export { INSTANCE_LABEL, checkAdoption, type LiveObject } from "../../translators/kubernetes/labels";
