/**
 * Tacker's own corpus (../shared/vnf-packages/tacker-corpus): its packages and Tacker's verdict on
 * each (verdicts.tsv), read one way for every conformance test.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const SHARED_PACKAGES = join(__dirname, "../../../../shared/vnf-packages");
const CORPUS = join(SHARED_PACKAGES, "tacker-corpus");

export interface Verdict {
  id: string;
  kind: string;
  expected: "accept" | "refuse" | "either";
}

export function verdicts(): Verdict[] {
  return readFileSync(join(CORPUS, "verdicts.tsv"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => {
      const [id, kind, expected] = line.split("\t");
      if (expected !== "accept" && expected !== "refuse" && expected !== "either") throw new Error(`verdicts.tsv: bad verdict ${expected} for ${id}`);
      return { id, kind, expected };
    });
}

/**
 * What Tacker was given: the package directory, or for a single-file VNFD (kinds `legacy`,
 * `single-file`) the file, stored in a directory named after it next to the type files it imports
 * (long names cut short).
 */
export function target({ id, kind }: Verdict): string {
  const dir = join(CORPUS, "packages", id);
  if (kind !== "legacy" && kind !== "single-file") return dir;
  const file = readdirSync(dir).find((f) => id.includes(f.replace(/\.ya?ml$/, "").slice(0, 30)));
  if (!file) throw new Error(`${id}: no file of that name in ${dir}`);
  return join(dir, file);
}
