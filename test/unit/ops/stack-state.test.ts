/** Config changes by path, and the stack settings file as it was before them put back (`--preview`, `nfv rollback`). */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeStack } from "../helpers/fake-stack";
import { applyConfigChanges, restoreSettings } from "../../../ops/stack-state";

// What `pulumi config set` leaves: a comment, an encrypted secret, a mapping a removal takes whole.
const SETTINGS = [
  "# the dev stack",
  "encryptionsalt: v1:abc",
  "config:",
  "  pulumi-nfv:vnfs:",
  "    hw:",
  "      scale_levels: {a: 1}",
  "      ssh:",
  "        password:",
  "          secure: v1:Zm9v",
  "",
].join("\n");

describe("applyConfigChanges", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const project = (stackConfigDir?: string) => {
    const workDir = mkdtempSync(path.join(tmpdir(), "stack-state-"));
    dirs.push(workDir);
    const file = path.join(workDir, stackConfigDir ?? "", "Pulumi.dev.yaml");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, SETTINGS);
    return { workDir, file };
  };

  it("sets and removes by path; the snapshot before them writes the settings file back byte for byte (comment, secret, removed mapping)", async () => {
    const { workDir, file } = project("stacks");
    const { stack, calls } = fakeStack(
      { "pulumi-nfv:vnfs": { hw: { scale_levels: { a: 1 }, ssh: { password: "p" } } } },
      { workDir, stackConfigDir: "stacks" },
    );
    const before = await applyConfigChanges(stack, [
      { key: "pulumi-nfv:vnfs.hw.scale_levels.a", value: "2" },
      { key: "pulumi-nfv:vnfs.hw.ssh", remove: true },
    ]);
    expect(calls).toEqual(["set pulumi-nfv:vnfs.hw.scale_levels.a=2 path=true", "remove pulumi-nfv:vnfs.hw.ssh path=true"]);
    writeFileSync(file, "config: {}\n"); // what the CLI would have written
    restoreSettings(before);
    expect(readFileSync(file, "utf8")).toBe(SETTINGS);
  });

  it("removing what is not there does nothing (`config rm --path` of a missing key fails)", async () => {
    const { workDir } = project();
    const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: {} } }, { workDir });
    await applyConfigChanges(stack, [
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU2-2", remove: true },
      { key: "pulumi-nfv:network_services.ns", remove: true },
    ]);
    expect(calls).toEqual([]);
  });

  it("one CLI call per run of sets or of removals, in the changes' order (a list removed, then written item by item); the config is read only for removals", async () => {
    const { workDir } = project();
    const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: { pending: ["VDU1-0"] } } }, { workDir });
    let reads = 0;
    const getAllConfig = stack.getAllConfig.bind(stack);
    (stack as unknown as { getAllConfig: () => unknown }).getAllConfig = () => (reads++, getAllConfig());
    const key = (k: string) => `pulumi-nfv:vnfs.hw.${k}`;
    await applyConfigChanges(stack, [
      { key: key("package_generations.VDU1-1"), value: "2" },
      { key: key("package_generations.VDU1-2"), value: "2" },
      { key: key("pending"), remove: true },
      { key: key("previous_package"), remove: true },
      { key: key("pending[0]"), value: "VDU1-3" },
    ]);
    expect(calls).toEqual([
      `set ${key("package_generations.VDU1-1")}=2 ${key("package_generations.VDU1-2")}=2 path=true`,
      `remove ${key("pending")} path=true`,
      `set ${key("pending[0]")}=VDU1-3 path=true`,
    ]);
    expect(reads).toBe(1);
    calls.length = 0;
    await applyConfigChanges(stack, [{ key: key("heal_generation"), value: "3" }]);
    expect(calls).toEqual([`set ${key("heal_generation")}=3 path=true`]);
    expect(reads).toBe(1);
  });

  it("a stack with no settings file yet: restoring removes the one the changes created", async () => {
    const workDir = mkdtempSync(path.join(tmpdir(), "stack-state-"));
    dirs.push(workDir);
    const { stack } = fakeStack({}, { workDir });
    const before = await applyConfigChanges(stack, [{ key: "pulumi-nfv:vnfs.hw.scale_levels.a", value: "2" }]);
    writeFileSync(path.join(workDir, "Pulumi.dev.yaml"), "config: {}\n");
    restoreSettings(before);
    expect(existsSync(path.join(workDir, "Pulumi.dev.yaml"))).toBe(false);
  });
});
