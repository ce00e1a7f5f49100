/**
 * pulumi-nfv example: a VM VNF of our own (package/, one VM) on an OpenStack VIM, with an
 * instantiate_end hook (mgmt/greet.sh) run on the VM over SSH. The VIM and the request are
 * Tacker's own files, as an operator has them.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { formatDiagnostic, loadVnfPackage, OpenStackVim, readVimConfigFile, vimFromSpec, VmVnf } from "pulumi-nfv";

const config = new pulumi.Config();

export = async () => {
  // Read, validate and plan the package with the request: every error names its file and line.
  const loaded = await loadVnfPackage(path.join(__dirname, "package"), config.require("instantiateRequest"));
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !loaded.model || !loaded.request) throw new Error(errors.map(formatDiagnostic).join("\n"));
  if (loaded.component !== "vm-vnf") throw new Error(`the package plans a ${loaded.component}, not a VM VNF`);

  const vim = vimFromSpec("vim", readVimConfigFile(config.require("vimConfig")).spec);
  if (!(vim instanceof OpenStackVim)) throw new Error("vimConfig must be an OpenStack VIM");

  const vnf = new VmVnf("greeter", {
    flavours: loaded.model.flavours,
    request: loaded.request,
    provider: vim.provider,
    packageSource: loaded.pkg.source,
    sshPublicKey: config.require("sshPublicKey"),
    ssh: { cpId: "greeterCp", user: config.get("sshUser") ?? "cirros", privateKey: config.requireSecret("sshPrivateKey") },
    hooks: [
      {
        operation: "instantiate_end",
        script: path.join(__dirname, "mgmt/greet.sh"),
        args: ["instantiate_end"],
        stdin: `greeting=${config.get("greeting") ?? "hello from pulumi-nfv"}\n`,
      },
    ],
  });
  return { vnfcs: vnf.vnfcs, vim: vim.vimRecord };
};
