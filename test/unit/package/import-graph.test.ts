/**
 * The library's module graph (every relative import of the source folders, type-only ones too):
 * no import circle, and the folders depend one way, package → model → plan → components →
 * operations: translators import no component, clients nothing but translators' types, and no
 * TypeScript lives in mgmt/ (only what runs on hosts). Then what `nfv`'s operations load when they
 * run: no Pulumi SDK.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const SOURCE = ["index.ts", "clients", "components", "ops", "translators", "stacks", "cli", "mgmt"];
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']*)["']/g;

function sources(p: string): string[] {
  const full = path.join(ROOT, p);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return p.endsWith(".ts") ? [p] : [];
  return readdirSync(full).flatMap((n) => sources(path.join(p, n)));
}

function resolve(spec: string, from: string): string | undefined {
  const target = path.normalize(path.join(path.dirname(from), spec));
  return [`${target}.ts`, path.join(target, "index.ts"), target].find((c) => c.endsWith(".ts") && existsSync(path.join(ROOT, c)));
}

const files = SOURCE.flatMap(sources);
const graph = new Map(
  files.map((f) => [f, [...readFileSync(path.join(ROOT, f), "utf8").matchAll(IMPORT)].map((m) => resolve(m[1], f)).filter((t): t is string => !!t)]),
);

/** Every cycle's modules (strongly connected components of more than one module, or a self-import). */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      for (let w = ""; w !== v;) scc.push((w = stack.pop()!));
      if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const top = (f: string) => f.split(path.sep)[0];

describe("the module graph", () => {
  it("reads every source module", () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain("components/vnf/vm-vnf.ts");
  });

  it("has no import circle, type-only imports included", () => {
    expect(cycles()).toEqual([]);
  });

  it("depends one way: translators import no component, operation, stack or CLI; clients only translators; components no stack, operation or CLI", () => {
    const allowed: Record<string, string[]> = {
      translators: ["translators"],
      clients: ["clients", "translators"],
      components: ["components", "clients", "translators"],
      ops: ["ops", "components", "clients", "translators", "stacks"],
    };
    const wrong = [...graph].flatMap(([f, targets]) =>
      allowed[top(f)] ? targets.filter((t) => !allowed[top(f)].includes(top(t))).map((t) => `${f} → ${t}`) : [],
    );
    expect(wrong).toEqual([]);
  });

  it("mgmt/ holds no TypeScript: only what runs on hosts", () => {
    expect(files.filter((f) => top(f) === "mgmt")).toEqual([]);
  });
});

/**
 * What a module loads when it runs: its `import`/`export … from` specifiers, but `import type`,
 * `export type` and imports of types only, which the compiler erases.
 */
function runtimeImports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+"([^"]+)";|^import\s+"([^"]+)";/gms)].flatMap(
    ([, typeOnly, clause, spec, bare]) => {
      if (bare) return [bare];
      const named = /^\{([^}]*)\}$/s.exec(clause.trim());
      const typesOnly = named?.[1].split(",").every((n) => n.trim() === "" || /^type\s/.test(n.trim()));
      return typeOnly || typesOnly ? [] : [spec];
    },
  );
}

/** Each `@pulumi/` package the runtime imports of `entry` reach, as the chain of modules that reaches it. */
function pulumiReached(entry: string): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith(".")) visit(resolve(spec, file)!, [...chain, file]);
      else if (spec.startsWith("@pulumi/")) found.push([...chain, file, spec].join(" → "));
    }
  };
  visit(entry, []);
  return found;
}

/**
 * `nfv`'s operations start without the Pulumi SDK: they run the pulumi CLI themselves
 * (ops/pulumi-stack.ts), and loading @pulumi/pulumi, or a provider's package that loads it, costs
 * about half a second before the first CLI call (a second with the Automation API: bench:cli).
 */
describe("nfv's operations load no Pulumi SDK", () => {
  const OPERATIONS = ["change-ext-conn", "change-vnfpkg", "heal", "preview", "rollback", "scale", "serve", "terminate"];
  const commandFile = (c: string) => path.join("cli/commands", `${c}.ts`);

  it("names every command that opens a stack", () => {
    const opening = readdirSync(path.join(ROOT, "cli/commands")).filter((f) => readFileSync(path.join(ROOT, "cli/commands", f), "utf8").includes("openStack("));
    expect(opening.map((f) => f.replace(/\.ts$/, "")).sort()).toEqual(OPERATIONS);
  });

  it.each(OPERATIONS)("%s", (command) => {
    expect(pulumiReached(commandFile(command))).toEqual([]);
  });

  it("the walk finds what it looks for: the stack program reaches the SDK", () => {
    expect(pulumiReached("stacks/program.ts")).toContain("stacks/program.ts → @pulumi/pulumi");
  });
});
