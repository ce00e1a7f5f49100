/**
 * What the new cloud holds before a VNF is deployed on it, as an operator prepares a cloud for
 * Tacker: the software images VNF packages name without shipping them (Tacker finds them by
 * `sw_image_data.name`, e.g. helloworld3's `Software of VDU1`), and the networks their external
 * virtual links attach to. Registered through the control plane's VIM once the service that holds
 * them is ready.
 */
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { slug } from "../vnf/vm-vnf";
import type { Service } from "./services";

/** An image uploaded to Glance. */
export interface CloudImage {
  /** The name VNF packages look it up by (`sw_image_data.name`). */
  name: string;
  /** A file of this machine holding the image. */
  file: pulumi.Input<string>;
  /** Glance's disk format; default `qcow2`. */
  diskFormat?: pulumi.Input<string>;
}

/** A network with one IPv4 subnet, shared with every project of the cloud. */
export interface CloudNetwork {
  /** Its name in the cloud, and its key in `ControlPlane.networkIds`. */
  name: string;
  /** The subnet's range, e.g. `10.10.0.0/24`. */
  cidr: pulumi.Input<string>;
}

/** The service each kind of resource needs, for the refusal of one asked for without it. */
const HOLDER = { glanceImages: "glance", networks: "neutron" } as const satisfies Record<string, Service>;

/**
 * The problem of each kind, if any: images without Glance, networks without Neutron, a name given
 * twice (checked before anything is registered; the stack config locates each at its own key).
 */
export function cloudResourceProblems(
  services: readonly Service[],
  resources: { glanceImages: readonly CloudImage[]; networks: readonly CloudNetwork[] },
): { kind: keyof typeof HOLDER; message: string }[] {
  return (Object.keys(HOLDER) as (keyof typeof HOLDER)[]).flatMap((kind) => {
    const list = resources[kind];
    if (list.length > 0 && !services.includes(HOLDER[kind]))
      return [{ kind, message: `the cloud holds them in ${HOLDER[kind]}, which is not among its services` }];
    // Their resource names are made of the names' slugs: two names of one slug would clash.
    const slugs = list.map((r) => slug(r.name));
    const twice = list.find((_, i) => slugs.indexOf(slugs[i]) !== i);
    if (twice) return [{ kind, message: `'${twice.name}' is given twice (names are compared in lower case, other characters than letters and digits as '-')` }];
    if (slugs.some((n) => n === "")) return [{ kind, message: "a name needs a letter or digit" }];
    return [];
  });
}

/** The images, public; each waits for `glance` (its gate). Returns their ids by name. */
export function uploadImages(
  name: string,
  images: readonly CloudImage[],
  glance: pulumi.Resource,
  opts: pulumi.CustomResourceOptions,
): Record<string, pulumi.Output<string>> {
  return Object.fromEntries(
    images.map((img) => [
      img.name,
      new openstack.images.Image(
        `${name}-image-${slug(img.name)}`,
        { name: img.name, localFilePath: img.file, diskFormat: img.diskFormat ?? "qcow2", containerFormat: "bare", visibility: "public" },
        { ...opts, dependsOn: [glance] },
      ).id,
    ]),
  );
}

/** The networks, each with its subnet; each waits for `neutron` (its gate). Returns their ids by name. */
export function createNetworks(
  name: string,
  networks: readonly CloudNetwork[],
  neutron: pulumi.Resource,
  opts: pulumi.CustomResourceOptions,
): Record<string, pulumi.Output<string>> {
  return Object.fromEntries(
    networks.map((n) => {
      const net = new openstack.networking.Network(
        `${name}-network-${slug(n.name)}`,
        { name: n.name, shared: true, adminStateUp: true },
        { ...opts, dependsOn: [neutron] },
      );
      const subnet = new openstack.networking.Subnet(`${name}-subnet-${slug(n.name)}`, { name: n.name, networkId: net.id, cidr: n.cidr, ipVersion: 4 }, opts);
      // The id once the subnet exists too: a port made on the network before it would get no address.
      return [n.name, pulumi.all([net.id, subnet.id]).apply(([id]) => id)];
    }),
  );
}
