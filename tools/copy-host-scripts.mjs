// tsc compiles only the TypeScript. The scripts the components copy to hosts or pods (mgmt/**/*.sh, *.py) are
// copied into dist/mgmt, so that a compiled component finds them at the same relative path as its
// source does (`../../mgmt/...` from components/<kind>/), in this tree and in the installed package.
// The OIDC exec credential plugin (clients/oidc-exec-credential.js, plain JavaScript that a
// kubeconfig runs with `node -e`) goes beside the compiled clients/oidc.js, which reads it.
import { copyFileSync, cpSync, statSync } from "node:fs";

cpSync("mgmt", "dist/mgmt", { recursive: true, filter: (src) => statSync(src).isDirectory() || /\.(sh|py)$/.test(src) });
copyFileSync("clients/oidc-exec-credential.js", "dist/clients/oidc-exec-credential.js");
