export { planScale, type ScalePlan, type ScalePlanInput, type ScaleRequest, type ReplicaChange } from "./scale";
export { planHeal, owns, runHeal, type HealPlan, type HealRunOptions, type PodDeletion } from "./heal";
export {
  kubeApi,
  credentialsOf,
  httpsTransport,
  type KubeApi,
  type LivePod,
  type Transport,
  type HttpRequest,
  type HttpResponse,
} from "../../clients/kube-api";
