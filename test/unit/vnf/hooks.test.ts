/**
 * Hook wiring (components/vnf/hooks.ts) through VmVnf on helloworld3: which commands exist for which VNFC,
 * create vs delete, and the order Pulumi's dependencies impose. Mocks: proves the graph, not SSH.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { isSecretValue, plain, settle, type Registered } from "../helpers/pulumi-mocks";
import type { VnfModel } from "../../../translators/tosca/model";
import { forget, request, vnfTestBed } from "./vnf-mocks";

let registered: Registered[];
let vnf: typeof import("../../../components/vnf");
let hooksMod: typeof import("../../../components/vnf/hooks");
let hw3: VnfModel;
let provider: openstack.Provider;
const NOOP = path.resolve(__dirname, "../../fixtures/vnf/hooks/noop.sh");
const ALL = ["instantiate_start", "instantiate_end", "scale_start", "scale_end", "heal_start", "heal_end", "terminate_start", "terminate_end"] as const;

beforeAll(async () => {
  ({ registered, vnf, hw3, provider } = await vnfTestBed());
  hooksMod = await import("../../../components/vnf/hooks");
});
afterEach(() => forget(registered));

/** Builds a VmVnf with a hook for every operation; records each child's dependsOn by name. */
function build(extra: Partial<import("../../../components/vnf").VmVnfArgs> = {}) {
  const deps = new Map<string, string[]>();
  const v = new vnf.VmVnf(
    "hw",
    {
      flavours: hw3.flavours,
      request: request("helloworld3_level1.json"),
      provider,
      scaleLevels: { worker_instance: 1 },
      hooks: ALL.map((operation) => ({ operation, script: NOOP, args: [operation], stdin: "TOKEN=t0ps3cret\n" })),
      ssh: { cpId: ["CP1", "CP3"], user: "ubuntu", privateKey: "PRIVATE KEY" },
      ...extra,
    },
    {
      transformations: [
        (a) => {
          const d = (a.opts.dependsOn ?? []) as pulumi.Resource[];
          deps.set(
            a.name,
            [d].flat().map((r) => (r as unknown as { __name?: string }).__name ?? "?"),
          );
          return undefined;
        },
      ],
    },
  );
  return { v, deps };
}
const cmd = (name: string) => registered.find((r) => r.name === name)!;

describe("hook wiring", () => {
  it("instantiate hooks on instantiated VNFCs, scale hooks on the scaled-out one, terminate hooks as deletes; no heal hooks at generation 0", async () => {
    const { v } = build();
    await settle();
    expect(v.hookOrder).toEqual([
      "VDU1-0:instantiate_start",
      "VDU2-0:instantiate_start",
      "VDU1-0:instantiate_end",
      "VDU2-0:instantiate_end",
      "VDU2-1:scale_end",
      "VDU2-1:scale_start",
      "VDU1-0:terminate_start",
      "VDU1-0:terminate_end",
      "VDU2-0:terminate_start",
      "VDU2-0:terminate_end",
      "VDU2-1:terminate_start",
      "VDU2-1:terminate_end",
    ]);
    expect(
      registered
        .filter((r) => r.type.startsWith("command:"))
        .map((r) => r.name)
        .sort(),
    ).toEqual(
      [
        ...["VDU1-0", "VDU2-0"].flatMap((id) => [
          `hw-${id}-copy-noop.sh`,
          `hw-${id}-instantiate_end`,
          `hw-${id}-instantiate_start`,
          `hw-${id}-ssh-ready`,
          `hw-${id}-terminate_end`,
          `hw-${id}-terminate_start`,
        ]),
        "hw-VDU2-1-copy-noop.sh",
        "hw-VDU2-1-scale_end",
        "hw-VDU2-1-scale_start",
        "hw-VDU2-1-ssh-ready",
        "hw-VDU2-1-terminate_end",
        "hw-VDU2-1-terminate_start",
      ].sort(),
    );
    expect(cmd("hw-VDU1-0-instantiate_end").inputs.create).toBe("sudo -n /bin/bash /var/tmp/nfv/noop.sh instantiate_end");
    for (const n of ["hw-VDU1-0-terminate_start", "hw-VDU1-0-terminate_end", "hw-VDU2-1-scale_start"]) {
      expect(cmd(n).inputs.create, n).toBeUndefined();
      expect(cmd(n).inputs.delete, n).toMatch(/^sudo -n \/bin\/bash \/var\/tmp\/nfv\/noop.sh (terminate_start|terminate_end|scale_start)$/);
      // Never replaced (a replace would run the delete on a live VNFC): no script-hash trigger.
      expect(cmd(n).inputs.triggers, n).toBeUndefined();
    }
    // Triggers: the script's hash, and the stdin's hash, kept secret (a short password's hash could be guessed).
    const triggers = cmd("hw-VDU1-0-instantiate_end").inputs.triggers;
    expect(isSecretValue(triggers)).toBe(true);
    const [scriptHash, stdinHash] = plain(triggers) as unknown[];
    expect(scriptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stdinHash).toBe(createHash("sha256").update("TOKEN=t0ps3cret\n").digest("hex"));
    // A changed connection alone (an address moved) updates the command without running the hook again.
    expect(cmd("hw-VDU1-0-instantiate_end").inputs.update).toBe("true");
    // The previous stdout is never sent back as SSH environment (upstream's default).
    for (const r of registered.filter((x) => x.type === "command:remote:Command")) expect(r.inputs.addPreviousOutputInEnv, r.name).toBe(false);
  });

  it("order by dependencies: SSH wait after server, copy after wait, every instantiate_end after every instantiate_start, terminate_start deleted before terminate_end", async () => {
    const { deps } = build();
    await settle();
    // VDU2 boots from its volume: no attachment to wait for, only the server.
    expect(deps.get("hw-VDU2-0-ssh-ready")).toEqual(["hw-VDU2-0"]);
    expect(deps.get("hw-VDU1-0-copy-noop.sh")).toEqual(["hw-VDU1-0-ssh-ready"]);
    expect(deps.get("hw-VDU1-0-instantiate_end")).toEqual(["hw-VDU1-0-copy-noop.sh", "hw-VDU1-0-instantiate_start", "hw-VDU2-0-instantiate_start"]);
    // Pulumi deletes dependents first: terminate_start (which depends on terminate_end) runs first.
    expect(deps.get("hw-VDU1-0-terminate_start")).toEqual(["hw-VDU1-0-copy-noop.sh", "hw-VDU1-0-terminate_end"]);
  });

  it("secrets: stdin and key are secrets; command strings and triggers hold none", async () => {
    build();
    await settle();
    for (const r of registered.filter((x) => x.type === "command:remote:Command" && x.inputs.stdin !== undefined)) {
      expect(isSecretValue(r.inputs.stdin), r.name).toBe(true);
      expect(plain(r.inputs.stdin)).toBe("TOKEN=t0ps3cret\n");
    }
    for (const r of registered.filter((x) => x.type.startsWith("command:"))) {
      expect(JSON.stringify({ ...r.inputs, stdin: undefined, connection: undefined }), r.name).not.toContain("t0ps3cret");
      const conn = r.inputs.connection as Record<string, unknown>;
      const c = (isSecretValue(conn) ? conn.value : conn) as Record<string, unknown>;
      expect(isSecretValue(c.privateKey) || isSecretValue(conn), r.name).toBe(true);
    }
  });

  it("heal generation: heal_start before the server (the server depends on it), heal_end after, only for that VNFC", async () => {
    const { v, deps } = build({ healGenerations: { "VDU2-0": 2 } });
    await settle();
    expect(
      registered
        .filter((r) => /heal_(start|end)$/.test(r.name))
        .map((r) => r.name)
        .sort(),
    ).toEqual(["hw-VDU2-0-heal_end", "hw-VDU2-0-heal_start"]);
    expect(deps.get("hw-VDU2-0")).toEqual(["hw-VDU2-0-heal_start"]);
    expect(deps.get("hw-VDU1-0")).toEqual([]);
    expect(cmd("hw-VDU2-0-heal_start").inputs.triggers).toEqual([2]);
    expect(cmd("hw-VDU2-0-heal_end").inputs.triggers).toEqual([2]);
    // heal_start dials the kept port's address, known before the server exists.
    const conn = cmd("hw-VDU2-0-heal_start").inputs.connection as Record<string, unknown>;
    expect(((isSecretValue(conn) ? conn.value : conn) as Record<string, unknown>).host).toMatch(/^10\.0\.0\./);
    expect(v.hookOrder.filter((o) => o.includes("heal"))).toEqual(["VDU2-0:heal_start", "VDU2-0:heal_end"]);
  });

  it("change of package: a pending VNFC keeps the previous image; a changed one runs change_current_package_start before its server, _end after", async () => {
    // VDU1 boots from its image (VDU2 from a volume): its only VNFC is still pending.
    const previous = structuredClone(hw3.flavours);
    for (const f of previous) for (const v of f.vdus) if (v.kind === "compute" && v.id === "VDU1" && v.swImage) v.swImage.name = "previous image";
    const ops = ["change_current_package_start", "change_current_package_end"] as const;
    const { v, deps } = build({
      hooks: ops.map((operation) => ({ operation, script: NOOP, args: [operation] })),
      previousPackage: { flavours: previous, pendingVnfcs: ["VDU1-0"] },
      packageGenerations: { "VDU2-0": 1 },
    });
    await settle();
    expect(cmd("hw-VDU1-0").inputs.imageId).toBe("image-previous image");
    expect(deps.get("hw-VDU2-0")).toEqual(["hw-VDU2-0-change_current_package_start"]);
    expect(deps.get("hw-VDU2-1")).toEqual([]);
    expect(deps.get("hw-VDU1-0")).toEqual([]);
    expect(cmd("hw-VDU2-0-change_current_package_start").inputs.triggers).toEqual([1]);
    expect(cmd("hw-VDU2-0-change_current_package_end").inputs.triggers).toEqual([1]);
    expect(v.hookOrder.filter((o) => o.includes("package"))).toEqual(["VDU2-0:change_current_package_start", "VDU2-0:change_current_package_end"]);
  });

  it("change of package done (nothing pending): every VNFC on the current package's image", async () => {
    const previous = structuredClone(hw3.flavours);
    for (const f of previous) for (const v of f.vdus) if (v.kind === "compute" && v.id === "VDU1" && v.swImage) v.swImage.name = "previous image";
    build({ previousPackage: { flavours: previous, pendingVnfcs: [] } });
    await settle();
    expect(cmd("hw-VDU1-0").inputs.imageId).toBe("image-Software of VDU1");
  });

  it("change of external connectivity: _start on the previous address before the ports (they depend on it), _end after, both triggered by the generation", async () => {
    const change = (operation: "change_external_connectivity_start" | "change_external_connectivity_end") => ({ operation, script: NOOP, args: [operation] });
    const { v, deps } = build({
      hooks: [change("change_external_connectivity_start"), change("change_external_connectivity_end")],
      extConnChange: { generation: 3, previousAddresses: { "VDU1-0": "192.0.2.7", "VDU2-0": "192.0.2.8" } },
    });
    await settle();
    // VDU2-1 (scaled out since) had no previous address: it did not live through the change, no hook runs on it.
    expect(
      registered
        .filter((r) => r.name.includes("change_external"))
        .map((r) => r.name)
        .sort(),
    ).toEqual([
      "hw-VDU1-0-change_external_connectivity_end",
      "hw-VDU1-0-change_external_connectivity_start",
      "hw-VDU2-0-change_external_connectivity_end",
      "hw-VDU2-0-change_external_connectivity_start",
    ]);
    for (const port of ["hw-VDU1-0-CP1", "hw-VDU1-0-CP2"]) expect(deps.get(port), port).toEqual(["hw-VDU1-0-change_external_connectivity_start"]);
    expect(deps.get("hw-VDU2-1-CP3")).toEqual([]);
    const conn = cmd("hw-VDU1-0-change_external_connectivity_start").inputs.connection as Record<string, unknown>;
    expect(((isSecretValue(conn) ? conn.value : conn) as Record<string, unknown>).host).toBe("192.0.2.7");
    expect(cmd("hw-VDU1-0-change_external_connectivity_start").inputs.triggers).toEqual([3]);
    expect(cmd("hw-VDU1-0-change_external_connectivity_end").inputs.triggers).toEqual([3]);
    expect(deps.get("hw-VDU1-0-change_external_connectivity_end")).toEqual(["hw-VDU1-0-copy-noop.sh"]);
    expect(v.hookOrder.filter((o) => o.includes("change"))).toEqual([
      "VDU1-0:change_external_connectivity_start",
      "VDU2-0:change_external_connectivity_start",
      "VDU1-0:change_external_connectivity_end",
      "VDU2-0:change_external_connectivity_end",
    ]);
  });

  it("no change made (generation 0 or none): no change hook command at all", async () => {
    const hooks = (["change_external_connectivity_start", "change_external_connectivity_end"] as const).map((operation) => ({ operation, script: NOOP }));
    build({ hooks });
    await settle();
    expect(registered.filter((r) => r.name.includes("change_external"))).toEqual([]);
  });

  it("shq quotes what the shell would split", () => {
    expect(hooksMod.shq("plain-word_1.sh")).toBe("plain-word_1.sh");
    expect(hooksMod.shq("a b")).toBe("'a b'");
    expect(hooksMod.shq("it's")).toBe("'it'\\''s'");
  });
});
