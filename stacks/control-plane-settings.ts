/**
 * The `openstack_control_planes` part of a stack config (issue 26): OpenStack control planes that
 * openstack-helm's charts deploy on a Kubernetes VIM of the stack (ControlPlane), each one an
 * OpenStack VIM of the stack in turn, which VM VNFs may name. Checked first, all problems collected
 * and located; the two passwords never appear in a message.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { checkNodeSelector } from "../components/openstack-control-plane/chart-values";
import { selectServices, SERVICES, type Service } from "../components/openstack-control-plane/services";
import { cloudResourceProblems, type CloudImage, type CloudNetwork } from "../components/openstack-control-plane/cloud-resource-checks";
import { checkFile } from "../translators/user-file";
import type { DiagnosticBag, SourceLocation } from "../translators/diagnostics";
import type { YamlPath } from "../translators/yaml/located-yaml";
import { checkVimType } from "./config";
import { isMapping } from "./vnfs";

export interface ControlPlaneEntry {
  name: string;
  /** The Kubernetes VIM (under `vims`, or a cluster's of this stack) the charts are deployed on. */
  vim: string;
  /** The OpenStack VIM it registers: `vim_name`, default `openstack_vim_<name>`. */
  vimName: string;
  /** The openstack-helm checkout, absolute. */
  charts: string;
  images: { registry: string; repository?: string; tag?: string };
  /** Plain here: the program makes them secrets the moment they leave the config. */
  adminPassword: string;
  passwordSeed: string;
  publicHost: string;
  nodeSelector?: { key: string; value: string };
  services?: Service[];
  namespace?: string;
  storageClass?: string;
  /** `glance_images`: uploaded to the new cloud's Glance (files absolute). */
  glanceImages?: CloudImage[];
  /** `networks`: made in the new cloud; VM VNFs on its VIM attach external virtual links to them (`ext_networks`). */
  networks?: CloudNetwork[];
}

type Locate = (p: YamlPath, key?: boolean) => SourceLocation;

/** Every key, and what its value must be. */
const KEYS: Record<string, string> = {
  vim: "the name of a Kubernetes VIM of the stack",
  charts: "the path of an openstack-helm checkout",
  image_registry: "host:port of the registry the nodes pull the images from",
  image_repository: "a non-empty string",
  image_tag: "a non-empty string",
  admin_password: "a secret string (pulumi config set --secret)",
  password_seed: "a secret string of at least 16 characters (pulumi config set --secret)",
  public_host: "the address of a node",
  node_selector: "a mapping with key and value",
  services: "a list of services",
  namespace: "a non-empty string",
  storage_class: "the name of a storage class of the cluster",
  vim_name: "a non-empty string",
  glance_images: "a list of images, each with name, file and optionally disk_format",
  networks: "a mapping of network name to its settings (cidr)",
};
const REQUIRED = ["vim", "charts", "image_registry", "admin_password", "password_seed", "public_host"];

/**
 * Structural checks of `openstack_control_planes`; `vimTypes` holds every VIM of the stack so far.
 * `vimNames` is the OpenStack VIM each control plane registers, a refused one's too (a VNF naming
 * it is not a second error).
 */
export function readControlPlaneEntries(
  raw: unknown,
  vimTypes: Map<string, string>,
  projectRoot: string,
  locate: Locate,
  bag: DiagnosticBag,
  refusedVims: ReadonlySet<string> = new Set(),
): { entries: ControlPlaneEntry[]; vimNames: string[] } {
  const entries: ControlPlaneEntry[] = [];
  const registered: string[] = [];
  if (raw === undefined) return { entries, vimNames: registered };
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", "openstack_control_planes must be a mapping of control plane name to its settings", locate([]));
    return { entries, vimNames: registered };
  }
  const vimNames = new Set(vimTypes.keys());
  for (const [name, value] of Object.entries(raw)) {
    const at = (p: YamlPath, key?: boolean) => locate([name, ...p], key);
    if (!isMapping(value)) {
      bag.error("CONFIG_BAD_TYPE", `control plane '${name}' must be a mapping`, at([]));
      continue;
    }
    const errors = bag.errors().length;
    for (const k of Object.keys(value))
      if (!(k in KEYS)) bag.error("CONFIG_UNKNOWN_KEY", `unknown key '${k}' (expected ${Object.keys(KEYS).join(", ")})`, at([k], true));
    for (const k of REQUIRED) if (value[k] === undefined) bag.error("CONFIG_MISSING_FIELD", `${k} is required (${KEYS[k]})`, at([]));
    const str = (k: string): string | undefined => {
      const v = value[k];
      if (v === undefined) return undefined;
      if (typeof v === "string" && v.trim() !== "") return v;
      // Never echo the value: it may be a password.
      bag.error("CONFIG_BAD_TYPE", `${k} must be ${KEYS[k]}`, at([k]));
      return undefined;
    };
    const vim = str("vim");
    if (vim !== undefined) checkVimType(vim, "kubernetes", "the charts run on a Kubernetes VIM", vimTypes, refusedVims, at(["vim"]), bag);
    const chartsPath = str("charts");
    const charts = chartsPath === undefined ? undefined : path.resolve(projectRoot, chartsPath);
    if (charts !== undefined && !existsSync(path.join(charts, "helm-toolkit", "Chart.yaml")))
      bag.error("CONFIG_FILE_MISSING", `charts: ${charts} has no helm-toolkit/Chart.yaml: not an openstack-helm checkout`, at(["charts"]));
    const seed = str("password_seed");
    if (seed !== undefined && seed.length < 16) bag.error("CONFIG_BAD_VALUE", `password_seed must be ${KEYS.password_seed}`, at(["password_seed"]));
    const adminPassword = str("admin_password");
    const registry = str("image_registry");
    const publicHost = str("public_host");
    const [repository, tag, namespace, storageClass] = [str("image_repository"), str("image_tag"), str("namespace"), str("storage_class")];
    const vimName = str("vim_name") ?? `openstack_vim_${name}`;
    let nodeSelector: { key: string; value: string } | undefined;
    const ns = value.node_selector;
    if (ns !== undefined) {
      if (isMapping(ns) && typeof ns.key === "string" && typeof ns.value === "string" && Object.keys(ns).length === 2) {
        try {
          checkNodeSelector({ key: ns.key, value: ns.value });
          nodeSelector = { key: ns.key, value: ns.value };
        } catch (e) {
          bag.error("CONFIG_BAD_VALUE", (e as Error).message, at(["node_selector"]));
        }
      } else bag.error("CONFIG_BAD_TYPE", `node_selector must be ${KEYS.node_selector}`, at(["node_selector"]));
    }
    let services: Service[] | undefined;
    if (value.services !== undefined) {
      if (Array.isArray(value.services) && value.services.every((s) => typeof s === "string")) {
        try {
          services = selectServices(value.services);
        } catch (e) {
          bag.error("CONFIG_BAD_VALUE", (e as Error).message, at(["services"]));
        }
      } else bag.error("CONFIG_BAD_TYPE", `services must be ${KEYS.services}`, at(["services"]));
    }
    const glanceImages = readGlanceImages(value.glance_images, projectRoot, at, bag);
    const networks = readNetworks(value.networks, at, bag);
    const configKey = { glanceImages: "glance_images", networks: "networks" } as const;
    for (const { kind, message } of cloudResourceProblems(services ?? [...SERVICES], { glanceImages: glanceImages ?? [], networks: networks ?? [] }))
      bag.error("CONFIG_BAD_VALUE", `${configKey[kind]}: ${message}`, at([configKey[kind]]));
    // The control plane registers an OpenStack VIM of that name: it must not shadow another VIM.
    if (vimNames.has(vimName))
      bag.error(
        "CONFIG_DUPLICATE_VIM",
        `the control plane's OpenStack VIM would be named '${vimName}', which is already a VIM of this stack; set vim_name`,
        at(value.vim_name === undefined ? [] : ["vim_name"]),
      );
    vimNames.add(vimName);
    registered.push(vimName);
    if (bag.errors().length > errors) continue;
    entries.push({
      name,
      vim: vim!,
      vimName,
      charts: charts!,
      images: { registry: registry!, ...(repository ? { repository } : {}), ...(tag ? { tag } : {}) },
      adminPassword: adminPassword!,
      passwordSeed: seed!,
      publicHost: publicHost!,
      ...(nodeSelector ? { nodeSelector } : {}),
      ...(services ? { services } : {}),
      ...(namespace ? { namespace } : {}),
      ...(storageClass ? { storageClass } : {}),
      ...(glanceImages ? { glanceImages } : {}),
      ...(networks ? { networks } : {}),
    });
  }
  return { entries, vimNames: registered };
}

const IMAGE_KEYS = ["name", "file", "disk_format"];

/** `glance_images`: a list of `{name, file, disk_format?}`, each file a regular file. */
function readGlanceImages(raw: unknown, projectRoot: string, at: Locate, bag: DiagnosticBag): CloudImage[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    bag.error("CONFIG_BAD_TYPE", `glance_images must be ${KEYS.glance_images}`, at(["glance_images"]));
    return undefined;
  }
  const images: CloudImage[] = [];
  raw.forEach((img: unknown, i) => {
    const here = (p: YamlPath = [], key?: boolean) => at(["glance_images", i, ...p], key);
    if (!isMapping(img)) {
      bag.error("CONFIG_BAD_TYPE", `glance_images[${i}] must be a mapping with ${IMAGE_KEYS.join(", ")}`, here());
      return;
    }
    for (const k of Object.keys(img))
      if (!IMAGE_KEYS.includes(k))
        bag.error("CONFIG_UNKNOWN_KEY", `unknown key 'glance_images[${i}].${k}' (expected ${IMAGE_KEYS.join(", ")})`, here([k], true));
    const { name, file, disk_format: diskFormat } = img;
    if (typeof name !== "string" || name.trim() === "")
      bag.error("CONFIG_MISSING_FIELD", `glance_images[${i}].name is required (the name packages look the image up by)`, here());
    if (typeof file !== "string") bag.error("CONFIG_MISSING_FIELD", `glance_images[${i}].file is required (the image's file)`, here());
    if (diskFormat !== undefined && (typeof diskFormat !== "string" || diskFormat.trim() === ""))
      bag.error("CONFIG_BAD_TYPE", `glance_images[${i}].disk_format must be a Glance disk format (qcow2, raw, ...)`, here(["disk_format"]));
    if (typeof name !== "string" || name.trim() === "" || typeof file !== "string") return;
    const resolved = path.resolve(projectRoot, file);
    if (checkFile(resolved, `glance_images[${i}].file`, here(["file"]), bag)) return;
    images.push({ name, file: resolved, ...(typeof diskFormat === "string" ? { diskFormat } : {}) });
  });
  return images;
}

/** `networks`: network name → `{cidr}`, an IPv4 range. */
function readNetworks(raw: unknown, at: Locate, bag: DiagnosticBag): CloudNetwork[] | undefined {
  if (raw === undefined) return undefined;
  if (!isMapping(raw)) {
    bag.error("CONFIG_BAD_TYPE", `networks must be ${KEYS.networks}`, at(["networks"]));
    return undefined;
  }
  const networks: CloudNetwork[] = [];
  for (const [name, v] of Object.entries(raw)) {
    const cidr = isMapping(v) ? v.cidr : undefined;
    if (!isMapping(v) || Object.keys(v).some((k) => k !== "cidr")) {
      bag.error("CONFIG_BAD_TYPE", `networks.${name} must be a mapping with cidr`, at(["networks", name]));
    } else if (typeof cidr !== "string" || !IPV4_CIDR.test(cidr)) {
      bag.error("CONFIG_BAD_VALUE", `networks.${name}.cidr must be an IPv4 range such as 10.10.0.0/24`, at(["networks", name, "cidr"]));
    } else networks.push({ name, cidr });
  }
  return networks;
}

const IPV4_CIDR = /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)\/(3[0-2]|[12]?\d)$/;
