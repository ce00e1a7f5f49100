/**
 * What the new cloud holds before a VNF is deployed on it, as an operator prepares a cloud for
 * Tacker: the software images VNF packages name without shipping them (Tacker finds them by
 * `sw_image_data.name`, e.g. helloworld3's `Software of VDU1`), and the networks their external
 * virtual links attach to. Registered through the control plane's VIM once the service that holds
 * them is ready.
 */
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { slug } from "../slug";
import type { CloudImage, CloudNetwork } from "./cloud-resource-checks";

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
