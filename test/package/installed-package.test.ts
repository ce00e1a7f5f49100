/**
 * The package as a user gets it (./install-packed.ts), in a project of its own: a program that
 * imports the package by name is type-checked as a CommonJS project (`main`/`types`) and as a
 * Node16 one (`exports`), with every README snippet that imports the package, and the package
 * is required at run time under Pulumi mocks.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPacked, packTarball } from "./install-packed";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

let work: string;
let app: string;
let installed: string;
let snippets: { file: string; from: string }[];
/** The examples' programs (examples/<name>/index.ts), as example-<name>.ts. */
let examples: string[];

/** The ```ts blocks of the READMEs and docs/ that import the package by name. */
function readmeSnippets(): { from: string; code: string }[] {
  const readmes = [
    "README.md",
    ...readdirSync(path.join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => path.join("docs", f)),
    ...["components", "translators", "mgmt", "cli"].flatMap((dir) =>
      (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]).filter((f) => path.basename(f) === "README.md").map((f) => path.join(dir, f)),
    ),
  ];
  return readmes.flatMap((from) =>
    [...readFileSync(path.join(ROOT, from), "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
      .map((m) => m[1])
      .filter((code) => code.includes('from "pulumi-nfv"'))
      .map((code) => ({ from, code })),
  );
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "pulumi-nfv-pack-"));
  app = path.join(work, "app");
  installed = await installPacked(await packTarball(work), app);
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
  writeFileSync(path.join(app, "program.ts"), PROGRAM);
  snippets = readmeSnippets()
    .map((s, i) => ({ file: `snippet-${i}.ts`, from: s.from, code: s.code }))
    .map(({ file, from, code }) => {
      writeFileSync(path.join(app, file), `// ${from}\n${code}`);
      return { file, from };
    });
  examples = readdirSync(path.join(ROOT, "examples"))
    .filter((d) => existsSync(path.join(ROOT, "examples", d, "index.ts")))
    .map((d) => {
      copyFileSync(path.join(ROOT, "examples", d, "index.ts"), path.join(app, `example-${d}.ts`));
      return `example-${d}.ts`;
    });
  for (const [name, module, moduleResolution] of [
    ["tsconfig.commonjs.json", "commonjs", "node10"],
    ["tsconfig.node16.json", "node16", "node16"],
  ]) {
    writeFileSync(
      path.join(app, name),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module, moduleResolution, strict: true, noEmit: true, skipLibCheck: false, types: ["node"] },
        files: ["program.ts", ...snippets.map((s) => s.file), ...examples],
      }),
    );
  }
}, 300_000);

// rmSync removes the links into node_modules, never what they point to.
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

/**
 * A user's program. The `@ts-expect-error` lines fail the check if the types were `any` (no
 * declarations found) or if a required argument became optional.
 */
const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { K8sCluster, KubernetesVim, loadVnfPackage, OpenStackVim, PrivateRegistry, VmVnf, type LoadedVnfPackage, type VmVnfArgs } from "pulumi-nfv";

export async function program(packagePath: string, requestFile: string): Promise<VmVnf> {
  const loaded: LoadedVnfPackage = await loadVnfPackage(packagePath, requestFile);
  if (!loaded.model || !loaded.request || loaded.component !== "vm-vnf") throw new Error(loaded.diagnostics.map((d) => d.code).join(", "));
  const vim = new OpenStackVim("core", { authUrl: "https://192.0.2.10/identity", username: "nfv", password: pulumi.secret("pw"), projectName: "nfv" });
  const args: VmVnfArgs = { flavours: loaded.model.flavours, request: loaded.request, provider: vim.provider, packageSource: loaded.pkg.source };
  // @ts-expect-error: flavours and request are required
  new VmVnf("incomplete", { provider: vim.provider });
  // @ts-expect-error: a KubernetesVim needs its API server
  new KubernetesVim("edge", { bearerToken: "t" });
  const registryArgs: ConstructorParameters<typeof PrivateRegistry>[1] = { host: { host: "192.0.2.5", user: "root" } };
  const clusterEndpoint = (c: K8sCluster): pulumi.Output<string> => c.endpoint;
  void registryArgs;
  void clusterEndpoint;
  return new VmVnf("hw", args);
}
`;

async function typeCheck(tsconfig: string): Promise<string> {
  try {
    await run(process.execPath, [TSC, "-p", path.join(app, tsconfig)], { cwd: app });
    return "";
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

/** Runs `script` with Node in the consumer project; its stdout is JSON. */
async function inConsumer(script: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ["-e", script], { cwd: app });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the packed package, installed by name", () => {
  it("is installed from the tarball, not linked to the sources", () => {
    expect(realpathSync(installed).startsWith(realpathSync(work))).toBe(true);
    expect(existsSync(path.join(installed, "dist/index.d.ts"))).toBe(true);
    expect(existsSync(path.join(installed, "index.ts"))).toBe(false);
  });

  it("has the README snippets to check: the root README's, the stack config reference's, each component's, the translator's", () => {
    expect(new Set(snippets.map((s) => s.from))).toEqual(
      new Set([
        "README.md",
        "docs/stack-config.md",
        "components/cnf/README.md",
        "components/k8s-cluster/README.md",
        "components/openstack-control-plane/README.md",
        "components/vnf/README.md",
        "translators/tosca/README.md",
      ]),
    );
  });

  it("has the examples' programs to check", () => {
    expect(examples).toEqual(expect.arrayContaining(["example-vm-vnf-openstack.ts"]));
  });

  it("type-checks a program, the README snippets and the examples importing it by name, as a CommonJS project (main, types)", async () => {
    expect(await typeCheck("tsconfig.commonjs.json")).toBe("");
  });

  it("type-checks the same files as a Node16 project (exports)", async () => {
    expect(await typeCheck("tsconfig.node16.json")).toBe("");
  });

  it("requires at run time: the public names, and deep imports refused by exports", async () => {
    const r = await inConsumer(`
      const lib = require("pulumi-nfv");
      let deep;
      try { require("pulumi-nfv/dist/components/vnf/vm-vnf.js"); deep = "loaded"; } catch (e) { deep = e.code; }
      console.log(JSON.stringify({
        resolved: require.resolve("pulumi-nfv"),
        functions: Object.keys(lib).filter((k) => typeof lib[k] === "function").sort(),
        deep,
      }));`);
    expect(realpathSync(r.resolved as string)).toBe(realpathSync(path.join(installed, "dist/index.js")));
    expect(r.functions).toEqual(
      expect.arrayContaining([
        "ContainerizedVnf",
        "ControlPlane",
        "K8sCluster",
        "KubernetesVim",
        "MagnumCluster",
        "OpenStackVim",
        "PrivateRegistry",
        "VmVnf",
        "loadVnfPackage",
        "parseVimConfig",
        "readInstantiateRequest",
        "readVimConfigFile",
        "vimFromSpec",
      ]),
    );
    expect(r.deep).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("loadVnfPackage reads, validates and plans a zip package from the installed copy", async () => {
    const r = await inConsumer(`
      const { loadVnfPackage } = require("pulumi-nfv");
      loadVnfPackage(${JSON.stringify(path.join(ROOT, "test/fixtures/packages/valid.zip"))}).then((l) => console.log(JSON.stringify({
        component: l.component, vdus: l.graph.nodes.filter((n) => n.kind === "vdu").length, diagnostics: l.diagnostics.map((d) => d.code),
      })));`);
    // The fixture's VDUs have no image: the plan refuses them to VMs, as VmVnf does (the package itself is valid).
    expect(r).toEqual({ component: "vm-vnf", vdus: 2, diagnostics: ["VNF_NO_IMAGE", "VNF_NO_IMAGE"] });
  });

  it("the host scripts resolve inside the installed package, and a component copies its script from there", async () => {
    const r = await inConsumer(`
      const pulumi = require("@pulumi/pulumi");
      const sources = [];
      pulumi.runtime.setMocks({
        newResource: (a) => { if (a.inputs.source) sources.push(Promise.resolve(a.inputs.source.path)); return { id: a.name + "-id", state: a.inputs }; },
        call: (a) => a.inputs,
      }, "consumer", "test", false);
      const fs = require("node:fs");
      const lib = require("pulumi-nfv");
      const registry = new lib.PrivateRegistry("reg", {
        host: { host: "192.0.2.5", user: "root", privateKey: pulumi.secret("key"), hostKey: "ssh-ed25519 AAAA" },
        installationParam: { ssh_username: "root", port_no: 5000 }, mode: "native",
      });
      registry.endpoint.apply(async () => {
        await new Promise((r) => setTimeout(r, 200));
        console.log(JSON.stringify({
          installScript: lib.REGISTRY_INSTALL_SCRIPT,
          installScriptIsFile: fs.statSync(lib.REGISTRY_INSTALL_SCRIPT).isFile(),
          nodeScripts: fs.readdirSync(lib.K8S_NODE_SCRIPTS_DIR).sort(),
          copied: await Promise.all(sources),
        }));
      });`);
    const inPackage = (p: string) => realpathSync(p).startsWith(realpathSync(installed) + path.sep);
    expect(r.installScriptIsFile).toBe(true);
    expect(inPackage(r.installScript as string)).toBe(true);
    expect(r.copied).toEqual([r.installScript]);
    expect(r.nodeScripts).toEqual(
      readdirSync(path.join(ROOT, "mgmt/k8s"))
        .filter((f) => f.endsWith(".sh"))
        .sort(),
    );
  });

  it("the nfv bin runs from the package: validate passes a valid package, fails a broken one", async () => {
    const bin = path.join(installed, "dist/cli/nfv.js");
    const ok = await run(process.execPath, [bin, "validate", path.join(ROOT, "test/fixtures/packages/valid.zip")], { cwd: app });
    expect(ok.stdout).toContain("0 error(s)");
    const broken = await run(process.execPath, [bin, "validate", path.join(ROOT, "test/fixtures/packages/zip-path-escape.zip")], { cwd: app }).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(broken).toMatchObject({ code: 1, stdout: expect.stringContaining("PKG_ZIP_ESCAPE") });
  });
});
