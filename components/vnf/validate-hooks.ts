/** Checks of the VmVnf arguments that the plan does not cover (hooks, SSH, images); throws one error listing all. */
import * as path from "node:path";
import { DiagnosticBag } from "../../translators/diagnostics";
import { unreadableFile } from "../../translators/user-file";
import { componentPackageFileOnDisk } from "../package-file";
import { LCM_OPERATIONS, type VmVnfPlan } from "./plan";
import type { Flavour } from "../../translators/tosca/model";
import type { PackageSource } from "../../translators/tosca/phase1-read/package-source";
import type { HookFile, HookScript, SshArgs } from "./hooks";

/** The fields of VmVnfArgs the checks read (named here, so that this module needs not import the component). */
export interface HookInputs {
  flavours: Flavour[];
  hooks?: HookScript[];
  files?: HookFile[];
  ssh?: SshArgs;
  images?: "lookup" | "upload";
  packageSource?: PackageSource;
  packageDir?: string;
}

/** Nova, Neutron and Cinder refuse longer names (255 characters), but only once earlier resources exist. */
export const MAX_OPENSTACK_NAME = 255;

export function validateHooks(name: string, plan: VmVnfPlan, args: HookInputs): void {
  const bag = new DiagnosticBag();
  const names = plan.vnfcs.flatMap((v) => [
    `${name}-${v.id}`,
    ...v.ports.map((p) => `${name}-${v.id}-${p.cpId}`),
    ...v.volumes.map((vol) => `${name}-${v.id}-${vol.storageId}`),
  ]);
  const longest = names.reduce((a, b) => (b.length > a.length ? b : a), "");
  if (longest.length > MAX_OPENSTACK_NAME) {
    bag.error(
      "VNF_NAME_TOO_LONG",
      `the OpenStack name ${longest.slice(0, 40)}… would be ${longest.length} characters; OpenStack allows ${MAX_OPENSTACK_NAME}: use a shorter VNF name`,
      { path: "name" },
    );
  }
  const flavour = args.flavours.find((f) => f.id === plan.flavourId)!;
  const vduIds = plan.vdus.map((v) => v.vduId);
  const hooks = args.hooks ?? [];
  const files = args.files ?? [];
  if ((hooks.length > 0 || files.length > 0) && !args.ssh) {
    bag.error("VNF_HOOK_NO_SSH", "hooks or files are given but no `ssh` access (cpId, user, key or password)", { path: "ssh" });
  }
  if (args.ssh) {
    const cpIds = [args.ssh.cpId].flat().filter((c) => c !== "");
    if (cpIds.length === 0) bag.error("VNF_SSH_CP", "`ssh.cpId` (ssh_cp_name) is required", { path: "ssh.cpId" });
    for (const cp of cpIds) {
      if (!flavour.cps.some((c) => c.id === cp))
        bag.error("VNF_SSH_CP", `ssh_cp_name \`${cp}\` is not a CP of flavour \`${flavour.id}\` (CPs: ${flavour.cps.map((c) => c.id).join(", ")})`, {
          path: "ssh.cpId",
        });
    }
    const hooked = new Set([...hooks.flatMap((h) => h.vdus ?? vduIds), ...files.flatMap((f) => f.vdus ?? vduIds)]);
    for (const v of hooked) {
      if (cpIds.length > 0 && !flavour.cps.some((c) => c.vduId === v && cpIds.includes(c.id))) {
        bag.error("VNF_SSH_CP", `VDU \`${v}\` runs hooks but has none of the SSH CPs ${cpIds.join(", ")}`, { path: "ssh.cpId" });
      }
    }
    if (args.ssh.user === undefined || args.ssh.user === "") bag.error("VNF_SSH_USER", "`ssh.user` (ssh_username) is required", { path: "ssh.user" });
    if (args.ssh.privateKey === undefined && args.ssh.password === undefined)
      bag.error("VNF_SSH_AUTH", "`ssh` needs a privateKey or a password", { path: "ssh" });
  }
  hooks.forEach((h, i) => {
    if (!(LCM_OPERATIONS as readonly string[]).includes(h.operation))
      bag.error("VNF_HOOK_OPERATION", `hook \`${h.operation}\` is not a Vnflcm operation (${LCM_OPERATIONS.join(", ")})`, { path: `hooks[${i}].operation` });
    // Every script is copied to REMOTE_DIR under its basename: two different ones would overwrite each other.
    const twin = hooks.find((o) => o.script !== h.script && path.basename(o.script) === path.basename(h.script));
    if (twin && hooks.indexOf(twin) < i)
      bag.error(
        "VNF_HOOK_SCRIPT",
        `hook scripts ${twin.script} and ${h.script} have the same name ${path.basename(h.script)}: both would be copied to the same file on the VM; rename one`,
        { path: `hooks[${i}].script` },
      );
    const scriptProblem = unreadableFile(h.script);
    if (scriptProblem) bag.error("VNF_HOOK_SCRIPT", `hook script ${h.script} ${scriptProblem}`, { path: `hooks[${i}].script` });
    for (const v of h.vdus ?? [])
      if (!vduIds.includes(v))
        bag.error("VNF_UNKNOWN_VDU", `hook \`${h.operation}\`: \`${v}\` is not a VDU of flavour \`${flavour.id}\``, { path: `hooks[${i}].vdus` });
  });
  files.forEach((f, i) => {
    const fileProblem = unreadableFile(f.source);
    if (fileProblem) bag.error("VNF_FILE_MISSING", `file ${f.source} ${fileProblem}`, { path: `files[${i}].source` });
    if (!f.remotePath.startsWith("/")) bag.error("VNF_FILE_REMOTE_PATH", `remotePath ${f.remotePath} must be absolute`, { path: `files[${i}].remotePath` });
  });
  if (args.images === "upload") {
    if (!args.packageSource && !args.packageDir) bag.error("VNF_IMAGE_UPLOAD", "images: upload needs `packageSource` or `packageDir`", { path: "packageDir" });
    else {
      // Read as every package file is (components/package-file.ts): a regular file inside the package, directory or zip.
      const flavourStorages = new Map(flavour.storages.map((s) => [s.id, s]));
      const images = [
        ...plan.vdus.filter((v) => v.imageName).map((v) => ({ what: `VDU \`${v.vduId}\``, file: v.imageFile })),
        ...[...new Set(plan.vnfcs.flatMap((c) => c.volumes.filter((vol) => vol.imageName).map((vol) => vol.storageId)))].map((id) => ({
          what: `storage \`${id}\``,
          file: flavourStorages.get(id)?.swImage?.artifactFile,
        })),
      ];
      const seen = new Set<string | undefined>();
      for (const { what, file } of images) {
        // One file may be several VDUs' and storages' image: said once.
        if (seen.has(file) && file !== undefined) continue;
        seen.add(file);
        const found = file === undefined ? { reason: "" } : componentPackageFileOnDisk(args, file);
        if ("reason" in found)
          bag.error("VNF_IMAGE_MISSING", `${what}: image file ${file ?? "(none declared)"} ${found.reason || "is not in the package"}`, { path: "images" });
      }
    }
  }
  bag.throwIfErrors("invalid VmVnf arguments");
}
