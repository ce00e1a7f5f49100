/**
 * What `npm pack` would publish: `npm pack --dry-run --json` runs `prepare` (the build) as a
 * publish does, then lists the tarball. The library's entry points with their declarations, the
 * scripts the components copy to hosts, and nothing of the tests, the lab, the benchmarks or the
 * project's own stacks.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, { types: string; default: string } | string>;
};

let files: string[];

beforeAll(async () => {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json"], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}, 240_000);

/** Every `*.sh` under mgmt/, package-relative. */
function hostScripts(dir = "mgmt"): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? hostScripts(`${dir}/${d.name}`) : d.name.endsWith(".sh") ? [`${dir}/${d.name}`] : [],
  );
}

describe("npm pack", () => {
  it("ships the root entry with its declarations, as main, types and exports name them, and the nfv bin", () => {
    const root = pkg.exports["."] as { types: string; default: string };
    for (const f of [pkg.main, pkg.types, root.types, root.default, pkg.bin.nfv]) expect(files, f).toContain(f.replace(/^\.\//, ""));
    expect(pkg.types).toBe("dist/index.d.ts");
    // Every compiled module has its declaration file; the OIDC exec plugin is no module but the
    // plain JavaScript a kubeconfig runs with `node -e` (copied beside clients/oidc.js, which reads it).
    const plugin = "dist/clients/oidc-exec-credential.js";
    expect(files).toContain(plugin);
    const js = files.filter((f) => f.endsWith(".js") && f !== plugin);
    expect(js.length).toBeGreaterThan(100);
    for (const f of js) expect(files, f).toContain(f.replace(/\.js$/, ".d.ts"));
  });

  it("ships every host script the components copy to hosts, beside the compiled components", () => {
    const scripts = hostScripts();
    expect(scripts).toContain("mgmt/registry/install-registry.sh");
    expect(scripts).toContain("mgmt/k8s/init-master.sh");
    for (const s of scripts) expect(files, s).toContain(`dist/${s}`);
  });

  it("ships LICENSE, README.md and CHANGELOG.md", () => {
    for (const f of ["LICENSE", "README.md", "CHANGELOG.md", "package.json"]) expect(files).toContain(f);
  });

  it("ships nothing of the tests, the lab, the benchmarks, the stacks' configs or fixtures, and no TypeScript source", () => {
    const unwanted = files.filter(
      (f) =>
        /^(test|lab|bench|\.bench-build|stacks|tools|node_modules)\//.test(f) ||
        /(^|\/)Pulumi(\.[^/]+)?\.yaml$/.test(f) ||
        f.includes("fixtures") ||
        (f.endsWith(".ts") && !f.endsWith(".d.ts")) ||
        f.endsWith(".map"),
    );
    expect(unwanted).toEqual([]);
    // Only the compiled library and the package's own documents.
    expect(files.filter((f) => !f.startsWith("dist/")).sort()).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json"]);
  });
});
