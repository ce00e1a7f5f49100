/** The example NS package (examples/hybrid-ns) with the ETSI SOL001 type files it imports. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readTree, REPO, SHARED_PACKAGES, type Files } from "../tosca/helpers";

export const EXAMPLE_NS = join(REPO, "examples/hybrid-ns/packages");

/** A package of examples/hybrid-ns/packages with ETSI's common and VNFD type files added to Definitions/. */
export function examplePackage(name: "ns" | "client-vnf" | "server-cnf"): Files {
  const files = readTree(join(EXAMPLE_NS, name));
  for (const f of ["etsi_nfv_sol001_common_types.yaml", "etsi_nfv_sol001_vnfd_types.yaml"]) {
    files.set(`Definitions/${f}`, readFileSync(join(SHARED_PACKAGES, "etsi-sol001-2.6.1", f), "utf8"));
  }
  return files;
}
