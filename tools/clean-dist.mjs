// A build starts from an empty dist/: tsc never deletes, so a module removed from the sources would
// otherwise stay in dist/ and be packed and published.
import { rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
