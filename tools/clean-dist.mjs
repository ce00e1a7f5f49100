// A build starts from an empty dist/: tsc never deletes, so a module removed from the sources would
// otherwise stay in dist/ and be packed and published. dist/bench-build is the benchmarks' own build
// (never packed): a running benchmark spawns `nfv` from it, so a build beside it (a unit test's
// `npm pack --dry-run`) must not delete it (that lost bench:openstack's 100-server heal and scale).
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const entries = existsSync("dist") ? readdirSync("dist") : [];
for (const entry of entries.filter((e) => e !== "bench-build")) rmSync(join("dist", entry), { recursive: true, force: true });
