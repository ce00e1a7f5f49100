export { planHeal, hookUrn, type HealPlan, type HealRequest, type HealVnfc } from "./heal";
export { planScale, type ScalePlan, type ScaleRequest } from "./scale";
