/**
 * The services of an OpenStack control plane on Kubernetes, one openstack-helm chart each, and
 * what each must find running before its chart is deployed.
 */

/** Every service, in an order where each comes after those it needs (the issue's order). */
export const SERVICES = ["mariadb", "rabbitmq", "memcached", "keystone", "glance", "placement", "neutron", "nova", "cinder"] as const;
export type Service = (typeof SERVICES)[number];

/**
 * Services without an openstack-helm chart at the commit we deploy: the control plane makes their
 * objects itself (cinder.ts).
 */
export const WITHOUT_CHART: readonly Service[] = ["cinder"];

/**
 * What a service's chart needs up before it is deployed. A chart waits for the gates of these
 * (readiness.ts: their Jobs complete, a pod of each workload Ready), so a dependency here is a
 * service that answers. Nova and Neutron come up side by side, neither before the other: each waits for a part
 * of the other (nova-compute for its node's Neutron agent, Neutron's DHCP agent for the compute
 * API), so a chart waited for before the other would never be ready.
 */
export const NEEDS: Record<Service, readonly Service[]> = {
  mariadb: [],
  rabbitmq: [],
  memcached: [],
  keystone: ["mariadb", "memcached"],
  glance: ["keystone"],
  placement: ["keystone"],
  neutron: ["keystone", "rabbitmq"],
  nova: ["placement", "glance", "rabbitmq"],
  // Glance only when a volume is made from an image, Nova only when one is attached: neither to start.
  cinder: ["keystone", "rabbitmq"],
};

/** Services that only come up together (see `NEEDS`): one chosen without the other is refused. */
const TOGETHER: Partial<Record<Service, readonly Service[]>> = { nova: ["neutron"], neutron: ["nova"] };

/**
 * The services to deploy, in dependency order; an error names a service that is unknown or whose
 * dependency is not among them (e.g. `glance` without `keystone`), or a set without Keystone.
 */
export function selectServices(names: readonly string[] | undefined): Service[] {
  if (names === undefined) return [...SERVICES];
  const unknown = names.filter((n) => !(SERVICES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`services: unknown ${unknown.map((u) => `'${u}'`).join(", ")} (known: ${SERVICES.join(", ")})`);
  // The control plane is registered as a VIM through Keystone: a set without it would be no cloud.
  if (!names.includes("keystone")) throw new Error("services: 'keystone' is required (the control plane is registered as a VIM through it)");
  const chosen = SERVICES.filter((s) => names.includes(s));
  for (const s of chosen) {
    const missing = [...NEEDS[s], ...(TOGETHER[s] ?? [])].filter((d) => !chosen.includes(d));
    if (missing.length > 0) throw new Error(`services: '${s}' needs ${missing.map((m) => `'${m}'`).join(", ")}, which is not in the list`);
  }
  return chosen;
}
