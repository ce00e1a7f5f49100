/**
 * The lab Kubernetes API (lab/k8s: kube-apiserver, etcd, kwok nodes on 127.0.0.1) for the
 * integration files that deploy on it. They run when lab/k8s/build.sh has cached the binaries.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { registerSecret, ROOT, scanLogsNow } from "../harness";

const LAB = path.join(ROOT, "lab/k8s");
const K8S_VERSION = /^K8S_VERSION=(\S+)/m.exec(readFileSync(path.join(LAB, "build.sh"), "utf8"))![1];
const CACHE = process.env.NFV_CACHE ?? path.join(homedir(), ".cache/pulumi-nfv");
const KUBECTL = path.join(CACHE, `k8s/kubectl-${K8S_VERSION}/bin/kubectl`);
const STATE = path.join(process.env.NFV_LAB_STATE ?? "/var/lib/pulumi-nfv-lab", "k8s");

/** Whether the lab's binaries are built (the files that need them are skipped otherwise). */
export const k8sLabBuilt = existsSync(path.join(CACHE, `k8s/kube-apiserver-${K8S_VERSION}/bin/kube-apiserver`)) && existsSync(KUBECTL);

/**
 * Brings the lab up (or finds it up) for `holder` (the test file); returns the path of the Tacker
 * vim-config.yaml it wrote. Files that share the lab hold it each under their own name.
 */
export function k8sLabUp(holder: string): string {
  const vimConfig = execFileSync(path.join(LAB, "up"), ["--holder", holder], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .pop()!;
  // The lab's bearer token, looked for by the canary scan of the file (lab/canary-watch.ts).
  registerSecret("k8s lab bearer token", labToken(vimConfig));
  return vimConfig;
}

/** Releases `holder`'s use of the lab; the lab stops when no other file (or person) holds it. */
export function k8sLabDown(holder: string): void {
  // The last holder's down removes the lab's state, its logs with it: the canary scan reads them first.
  scanLogsNow();
  execFileSync(path.join(LAB, "down"), ["--holder", holder], { stdio: "inherit" });
}

/** kubectl as the lab's admin, in namespace `default`. */
export function kubectl(...args: string[]): string {
  return execFileSync(KUBECTL, ["--kubeconfig", path.join(STATE, "kubeconfig"), "-n", "default", ...args], { encoding: "utf8" }).trim();
}

/** The nfv-admin bearer token in the vim-config.yaml that lab/k8s/up wrote. */
export function labToken(vimConfig: string): string {
  return readFileSync(vimConfig, "utf8").match(/^bearer_token: *"?([^"\n]+)"?$/m)![1];
}
