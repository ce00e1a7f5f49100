/**
 * OpenStack on Kubernetes (issue 26): openstack-helm's charts, one `helm.v4.Chart` per service in
 * dependency order, on a Kubernetes VIM, with images built from Debian's packages; the new cloud
 * registered back as an OpenStack VIM that VM VNFs deploy on.
 */
import * as path from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { stringify } from "yaml";
import { keystoneProvider, OpenStackVim } from "../vim/openstack-vim";
import { readChartDefaults } from "./chart-defaults";
import { chartValues, checkNodeSelector, PUBLIC_APIS } from "./chart-values";
import { imageRef, type ImageSource } from "./images";
import { passwordsFrom } from "./passwords";
import { chartGate, gateAccount, skipAwait } from "./readiness";
import { keepSecretsOut } from "./secret-rewrites";
import { deployCinder } from "./cinder";
import { cloudResourceProblems, type CloudImage, type CloudNetwork } from "./cloud-resource-checks";
import { createNetworks, uploadImages } from "./cloud-resources";
import { NEEDS, selectServices, WITHOUT_CHART, type Service } from "./services";

export interface ControlPlaneArgs {
  /**
   * The Kubernetes VIM to deploy onto (a `KubernetesVim`, or a `K8sCluster`'s `vim`): its provider
   * registers every object; without one, the `kubernetes` provider of `opts` (or a parent's) does.
   */
  vim: { provider?: k8s.Provider };
  /** A directory of openstack-helm's charts (`keystone/`, `helm-toolkit/`, ...), as upstream ships them. */
  charts: string;
  /** The namespace of the control plane, created here; default `openstack`. */
  namespace?: string;
  /**
   * The services to deploy, default all of `SERVICES`; each needs those it depends on (e.g.
   * `["mariadb", "memcached", "keystone"]`, or with `"glance"` and `"placement"` as well).
   */
  services?: Service[];
  /** Where the nodes pull the images of `lab/openstack-helm/images` from. */
  images: ImageSource;
  /** The password of Keystone's `admin` (the VIM's user); kept secret. */
  adminPassword: pulumi.Input<string>;
  /**
   * The seed every internal password is derived from (at least 16 characters; kept secret): the
   * databases', RabbitMQ's, the services' Keystone users', memcache's key.
   */
  passwordSeed: pulumi.Input<string>;
  /**
   * The address of a node that this program and the VNFs' users reach: the catalog's public
   * endpoints are its node ports (Keystone on 30500), and the VIM's `auth_url` is Keystone's.
   */
  publicHost: pulumi.Input<string>;
  /**
   * The storage class of MariaDB's and RabbitMQ's volumes (the charts' PersistentVolumeClaims).
   * Without one, for a cluster without a provisioner, their data is a directory of the node the
   * server runs on (`/var/lib/openstack-helm/<chart>`, the charts' single-server host path): it
   * outlives the pod on that node, not a move to another one.
   */
  storageClass?: string;
  /** Puts every pod on nodes with this label, instead of the charts' `openstack-control-plane=enabled` and others. */
  nodeSelector?: { key: string; value: string };
  /** The VIM's name (Tacker `vim_name`); default `openstack_vim_<name>`. */
  vimName?: string;
  /**
   * Images uploaded to Glance once it is ready (public): those VNF packages name without shipping
   * them, as Tacker expects them in the cloud (`sw_image_data.name`). Needs `glance`.
   */
  glanceImages?: CloudImage[];
  /** Networks (shared, one IPv4 subnet each) made once Neutron is ready, for VNFs' external virtual links. Needs `neutron`. */
  networks?: CloudNetwork[];
}

/** The region Keystone is bootstrapped with (the charts' `RegionOne`). */
const REGION = "RegionOne";

/** `value` once every one of `these` is known, and depending on the resources they come from. */
function after(these: pulumi.Output<unknown>[], value: pulumi.Output<string>): pulumi.Output<string> {
  return pulumi.all([value, ...these]).apply(([v]) => v);
}

/** An OpenStack control plane on Kubernetes, registered as an OpenStack VIM. */
export class ControlPlane extends pulumi.ComponentResource {
  /** The services deployed, in the order they came up. */
  readonly services: Service[];
  /** Each service's chart. */
  readonly charts: Partial<Record<Service, k8s.helm.v4.Chart>>;
  /** Each service's gate: a Job that completes once the chart's Jobs succeeded and its pods are Ready (readiness.ts). */
  readonly ready: Partial<Record<Service, k8s.batch.v1.Job>>;
  /** Keystone's public URL: `http://<publicHost>:30500/v3`. */
  readonly authUrl: pulumi.Output<string>;
  /** The new cloud as a VIM: its provider deploys VM VNFs on it, configured once every service is ready and `glanceImages` and `networks` exist. */
  readonly vim: OpenStackVim;
  /** Tacker's `vim-config.yaml` for this cloud (secret: it holds the admin password). */
  readonly vimConfig: pulumi.Output<string>;
  /** The ids of `glanceImages`, by name. */
  readonly imageIds: Record<string, pulumi.Output<string>>;
  /** The ids of `networks`, by name, each once its subnet exists: an external virtual link's `resourceId`. */
  readonly networkIds: Record<string, pulumi.Output<string>>;

  constructor(name: string, args: ControlPlaneArgs, opts?: pulumi.ComponentResourceOptions) {
    // Checked before anything is registered: the services, and every chart's values.yaml.
    const services = selectServices(args.services);
    if (args.nodeSelector) checkNodeSelector(args.nodeSelector);
    const [problem] = cloudResourceProblems(services, { glanceImages: args.glanceImages ?? [], networks: args.networks ?? [] });
    if (problem) throw new Error(`${problem.kind}: ${problem.message}`);
    const charted = services.filter((s) => !WITHOUT_CHART.includes(s));
    const defaults = Object.fromEntries(charted.map((s) => [s, readChartDefaults(path.join(args.charts, s))]));
    super("nfv:openstack:ControlPlane", name, {}, opts);
    this.services = services;

    const provider = args.vim.provider;
    const namespaceName = args.namespace ?? "openstack";
    const namespace = new k8s.core.v1.Namespace(`${name}-namespace`, { metadata: { name: namespaceName } }, { parent: this, provider });
    const ctx = {
      images: args.images,
      adminPassword: pulumi.secret(args.adminPassword),
      password: passwordsFrom(args.passwordSeed),
      nodeSelector: args.nodeSelector,
      publicHost: args.publicHost,
      storageClass: args.storageClass,
    };
    const account = gateAccount(name, namespaceName, { parent: this, provider, dependsOn: [namespace] });
    const nodeSelector = args.nodeSelector ? { [args.nodeSelector.key]: args.nodeSelector.value } : undefined;
    this.charts = {};
    this.ready = {};
    const gate = { namespace: namespaceName, image: imageRef(args.images, "osh-entrypoint"), nodeSelector, account };
    for (const s of services) {
      const needs = NEEDS[s].map((d) => this.ready[d]).filter((g): g is k8s.batch.v1.Job => g !== undefined);
      if (s === "cinder") {
        const cinder = deployCinder(
          `${name}-cinder`,
          { namespace: namespaceName, region: REGION, ctx, nodeSelector, gate },
          { parent: this, provider, dependsOn: [namespace, ...needs] },
        );
        this.ready.cinder = cinder.gate;
        continue;
      }
      const chart = new k8s.helm.v4.Chart(
        `${name}-${s}`,
        {
          chart: path.join(args.charts, s),
          name: s,
          namespace: namespace.metadata.name,
          // helm-toolkit, the charts' one dependency, comes from the checkout (`file://../helm-toolkit`).
          dependencyUpdate: true,
          values: chartValues(s, defaults[s], ctx),
        },
        { parent: this, provider, dependsOn: [namespace, ...needs], transforms: [skipAwait, keepSecretsOut] },
      );
      this.charts[s] = chart;
      this.ready[s] = chartGate(`${name}-${s}-ready`, chart, gate, { parent: this, provider });
    }

    this.authUrl = pulumi.interpolate`http://${args.publicHost}:${PUBLIC_APIS.identity.nodePort}/v3`;
    // What the cloud starts with is made as admin, by a provider per service configured once that
    // service's gate passed (after Keystone's: NEEDS). The openstack provider reads the service
    // catalog once, when it first authenticates: one provider for both, configured after Keystone's
    // gate, had the catalog of the services registered when the first image was uploaded, and
    // Neutron's endpoint, registered later, was "No suitable endpoint" to it (a CI run, 2026-12-07).
    const setupOn = (service: "glance" | "neutron", aliases: pulumi.Input<pulumi.Alias>[] = []) => ({
      parent: this,
      provider: keystoneProvider(
        `${name}-setup-${service}`,
        { authUrl: after([this.ready[service]!.id], this.authUrl), username: "admin", password: ctx.adminPassword, projectName: "admin", region: REGION },
        { parent: this, aliases },
      ),
    });
    const images = args.glanceImages ?? [];
    const networks = args.networks ?? [];
    // The one setup provider of before is the images' now.
    this.imageIds = images.length > 0 ? uploadImages(name, images, this.ready.glance!, setupOn("glance", [{ name: `${name}-setup` }])) : {};
    this.networkIds = networks.length > 0 ? createNetworks(name, networks, this.ready.neutron!, setupOn("neutron")) : {};
    // The VIM's provider is configured only once every service's gate passed and those resources
    // exist: whatever is deployed on it (a flavor, a port, an image looked up by name) never reaches
    // a service still coming up, though the whole loop runs in one `up`. A dependsOn would not do:
    // it holds the component, not its provider, and not the invokes made through the provider.
    const cloudReady = [...Object.values(this.ready).map((gate) => gate.id), ...Object.values(this.imageIds), ...Object.values(this.networkIds)];
    const vimName = args.vimName ?? `openstack_vim_${name}`;
    this.vim = new OpenStackVim(
      `${name}-vim`,
      { authUrl: after(cloudReady, this.authUrl), username: "admin", password: ctx.adminPassword, projectName: "admin", region: REGION, vimName },
      { parent: this },
    );
    this.vimConfig = pulumi.secret(
      pulumi.all([this.authUrl, ctx.adminPassword]).apply(([authUrl, password]) =>
        stringify({
          auth_url: authUrl,
          username: "admin",
          password,
          project_name: "admin",
          domain_name: "Default",
          project_domain_name: "Default",
          user_domain_name: "Default",
          cert_verify: "False",
        }),
      ),
    );
    this.registerOutputs({ services, authUrl: this.authUrl, vimConfig: this.vimConfig, imageIds: this.imageIds, networkIds: this.networkIds });
  }
}
