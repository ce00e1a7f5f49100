/** The example NS package (examples/hybrid-ns) with the ETSI SOL001 type files it imports. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { REPO, SHARED_PACKAGES, type Files } from "../tosca/helpers";

export const EXAMPLE_NS = join(REPO, "examples/hybrid-ns/packages");

export function treeFiles(root: string): Files {
  const files: Files = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join("/"), readFileSync(full, "utf8"));
    }
  };
  walk(root);
  return files;
}

/** A package of examples/hybrid-ns/packages with ETSI's common and VNFD type files added to Definitions/. */
export function examplePackage(name: "ns" | "client-vnf" | "server-cnf"): Files {
  const files = treeFiles(join(EXAMPLE_NS, name));
  for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml"]) {
    files.set(`Definitions/${f}`, readFileSync(join(SHARED_PACKAGES, "etsi-sol001-2.6.1", f), "utf8"));
  }
  return files;
}
