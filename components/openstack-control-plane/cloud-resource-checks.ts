/**
 * The cloud resources a control plane is asked to hold (cloud-resources.ts registers them): their
 * types and the checks made before anything is registered. No Pulumi runtime here: the stack
 * config's reader (stacks/control-plane-settings.ts) uses it, and `nfv`'s operations read the
 * config without loading the SDK.
 */
import type * as pulumi from "@pulumi/pulumi";
import { slug } from "../slug";
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
