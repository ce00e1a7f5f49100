export { planScale, type ScalePlan, type ScalePlanInput, type ScaleRequest, type ReplicaChange } from "./scale";
export { planHeal, owns, runHeal, type HealPlan, type HealRunOptions, type LivePod, type PodDeletion } from "./heal";
export { kubeApi, credentialsOf, httpsTransport, type KubeApi, type Transport, type HttpRequest, type HttpResponse } from "./kube-api";
