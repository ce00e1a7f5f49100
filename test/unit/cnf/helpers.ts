/** Shared helpers of the CNF tests. */
import * as path from "node:path";
import type { DiagnosticError } from "../../../translators/diagnostics";
import { DirectorySource } from "../../../translators/tosca/phase1-read/package-source";
import { manifestReader, type ManifestReader } from "../../../translators/kubernetes/manifests";
import type { CnfPlan } from "../../../translators/kubernetes/plan";

export const SHARED = path.resolve(__dirname, "../../../../shared/vnf-packages");
export const TEST_CNF = path.join(SHARED, "test_cnf");
export const LEGACY = path.join(SHARED, "legacy-containerized");

/** The test_cnf package's files, printed as `test_cnf/Files/...`. */
export function testCnfFiles(): ManifestReader {
  return manifestReader(new DirectorySource("test_cnf", TEST_CNF));
}

/** A package in memory: the test_cnf files plus/overridden by `extra` (path → text). */
export function withFiles(extra: Record<string, string>): ManifestReader {
  const base = testCnfFiles();
  return { read: (p) => extra[p] ?? base.read(p), display: (p) => `pkg/${p}` };
}

export const defFiles = (...names: string[]) => ({ "lcm-kubernetes-def-files": names.map((n) => `Files/kubernetes/${n}`) });

export function errors(plan: CnfPlan) {
  return plan.diagnostics.filter((d) => d.severity === "error");
}

export function warnings(plan: CnfPlan) {
  return plan.diagnostics.filter((d) => d.severity === "warning");
}

export function kindsAndNames(plan: CnfPlan): string[] {
  return plan.objects.map((p) => `${p.object.kind}/${p.object.metadata.name}`);
}

export function thrown(fn: () => unknown): DiagnosticError {
  try {
    fn();
  } catch (e) {
    return e as DiagnosticError;
  }
  throw new Error("expected a DiagnosticError");
}
