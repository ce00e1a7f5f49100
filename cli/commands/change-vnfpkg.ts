/**
 * `nfv change-vnfpkg --stack S --package P [--request FILE] [--vnf NAME] [--preview] [--cwd DIR]`:
 * Tacker's Change Current VNF Package (RollingUpdate). A CNF's workloads are updated in place; a
 * VM VNF's VNFCs are moved to the new package's image and flavor VNFC by VNFC (`batch_size` of
 * the request), one `up` each, with the `change_current_package_start`/`_end` hooks around each.
 * A failed step leaves the VNF partly on each package, recorded in the stack config; `nfv
 * rollback` brings every VNFC back to the previous package. `--preview` shows the first step.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { EVENT_LOG_USAGE } from "../event-log";
import { parseArgs, UsageError } from "../args";
import { unreadableFile } from "../../translators/user-file";
import { loadVnfPackage } from "../../translators/load-vnf-package";
import { EXIT_PROBLEMS, UserError, type Command } from "../io";
import { planChangeVnfpkgOperation, type PackageChangePlan } from "../../ops/change-vnfpkg";
import { loadStack } from "../../ops/stack-state";
import { missingImages } from "../../clients/openstack";
import { DiagnosticError } from "../../translators/diagnostics";
import type { StackSettings } from "../../stacks/settings";
import { describeError, runSteps } from "../run-operation";
import { openStack, projectDir } from "../stack";

export const command: Command = {
  usage:
    [
      "usage: nfv change-vnfpkg --stack S --package P [--request FILE] [--vnf NAME] [--preview] [--event-log FILE] [--cwd DIR]",
      "",
      "  --package   the new VNF package (a directory or a zip), with a new vnfdId",
      "  --request   a ChangeCurrentVnfPkgRequest JSON (Tacker's param file, as it is): vdu_params order,",
      "              batch_size (ours: VNFCs per up, default 1), additionalParams for the new package",
      "  --vnf       the VNF, when the stack has more than one",
      "  --preview   show what the first step would change; the stack is left as it was",
      EVENT_LOG_USAGE,
      "",
      "Exit status: 0 done, 1 refused or failed (then `nfv rollback`), 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["stack", "package", "request", "vnf", "cwd", "event-log"], ["preview"]);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const stackName = options.get("stack");
    const packageArg = options.get("package");
    if (!stackName || !packageArg) throw new UsageError("--stack and --package are required");
    const packagePath = path.resolve(packageArg);
    if (!existsSync(packagePath)) throw new UserError(`--package ${packagePath} does not exist`);
    const requestArg = options.get("request");
    const requestPath = requestArg !== undefined ? path.resolve(requestArg) : undefined;
    const problem = requestPath !== undefined ? unreadableFile(requestPath) : undefined;
    if (problem) throw new UserError(`--request ${requestPath} ${problem}`);
    const root = projectDir(options.get("cwd") ?? process.cwd());
    const stack = openStack(stackName, root);
    let plan;
    try {
      const loaded = await loadVnfPackage(packagePath);
      const settings = await loadStack(stack, root);
      plan = planChangeVnfpkgOperation(settings.vnfs, {
        vnf: options.get("vnf"),
        packagePath,
        loaded,
        ...(requestPath !== undefined ? { request: { path: requestPath, text: readFileSync(requestPath, "utf8") } } : {}),
      });
      await checkImages(plan, settings, packagePath);
    } catch (e) {
      io.err(`nfv change-vnfpkg: ${describeError(e)}\n`);
      return EXIT_PROBLEMS;
    }
    io.out(
      `change-vnfpkg ${plan.vnf}:\n${plan.steps
        .flatMap((s) => s.summary)
        .map((l) => `  ${l}\n`)
        .join("")}`,
    );
    return runSteps(stack, plan.steps, flags.has("preview"), "change-vnfpkg", io, options.get("event-log"));
  },
};

/**
 * The new images asked of the VIM's Glance before anything changes: the provider's own lookup
 * would fail in the middle of the first step, with a message that names no image.
 */
async function checkImages(plan: PackageChangePlan, settings: StackSettings, packagePath: string): Promise<void> {
  const vimName = settings.vnfs.find((p) => p.entry.name === plan.vnf)?.entry.vim;
  const spec = settings.vims.find((v) => v.name === vimName)?.spec;
  if (spec?.type !== "openstack") return;
  const byName = new Map(Object.entries(plan.images).map(([vdu, image]) => [image, vdu]));
  const missing = await missingImages(spec, [...byName.keys()]);
  if (missing.length > 0)
    throw new DiagnosticError(
      "cannot plan the change of package",
      missing.map((image) => ({
        severity: "error" as const,
        code: "CHANGE_VNFPKG_NO_IMAGE",
        message: `image '${image}' of VDU ${byName.get(image)} (sw_image_data.name in ${packagePath}) is not in the Glance of VIM '${vimName}'`,
      })),
    );
}
