/**
 * The charts' images, replaced through their `images.tags` values by the images
 * `lab/openstack-helm/images` builds from Debian's packages and an operator pushes to a registry
 * the cluster pulls from: the charts themselves are never edited.
 */

/**
 * Our image for each upstream image a chart names, by its repository's last path segment
 * (`quay.io/airshipit/keystone:2024.1-ubuntu_jammy` → `keystone`). openstack-helm runs its
 * Keystone, database and endpoint jobs in its `heat` image: for them ours is the OpenStack client.
 */
export const IMAGE_OF_REPOSITORY: Readonly<Record<string, string>> = {
  heat: "osh-openstack-client",
  keystone: "osh-keystone",
  glance: "osh-glance",
  placement: "osh-placement",
  nova: "osh-nova",
  neutron: "osh-neutron",
  "kubernetes-entrypoint": "osh-entrypoint",
  mariadb: "osh-mariadb",
  memcached: "osh-memcached",
  rabbitmq: "osh-rabbitmq",
};

/**
 * Tags whose image is ours whatever upstream's is: the RabbitMQ jobs run in our RabbitMQ image
 * (it has bash, awk, Python and Debian's rabbitmqadmin); the services' rabbit-init is rabbit-user.py
 * there (secret-rewrites.ts), which needs Python only.
 */
export const IMAGE_OF_TAG: Readonly<Record<string, string>> = { rabbit_init: "osh-rabbitmq", rabbitmq_init: "osh-rabbitmq" };

/** Where the images are: `<registry>/<repository>/<image>:<tag>`. */
export interface ImageSource {
  /** `host:port` of the registry the cluster's nodes pull from. */
  registry: string;
  /** Default `nfv-lab`, the repository `lab/openstack-helm/images` names them in. */
  repository?: string;
  /** Default `zed-bookworm`. */
  tag?: string;
}

/** The repository's last path segment of an image reference, without tag or digest. */
export function repositoryName(ref: string): string {
  const last = ref.split("/").pop() ?? ref;
  return last.split("@")[0].split(":")[0];
}

/**
 * The `images.tags` values for one chart: each of its default tags whose image is one of ours,
 * pointed at the registry. Tags of images we do not build (exporters, test and backup tools) are
 * left out: the manifests that use them are switched off (`chart-values.ts`), which the render
 * test checks.
 */
export function imageTags(defaults: Record<string, string>, source: ImageSource): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [key, ref] of Object.entries(defaults)) {
    const ours = IMAGE_OF_TAG[key] ?? IMAGE_OF_REPOSITORY[repositoryName(ref)];
    if (ours !== undefined) tags[key] = imageRef(source, ours);
  }
  return tags;
}

/** The reference of one of our images (`osh-entrypoint`, ...) at the source. */
export function imageRef(source: ImageSource, image: string): string {
  return `${source.registry}/${source.repository ?? "nfv-lab"}/${image}:${source.tag ?? "zed-bookworm"}`;
}
