/**
 * A fuzz of the other ways a value reaches a script, each read back by what reads it on the host,
 * thousands of cases per property and one shell per batch: the key=value stdin protocol (stdinLines
 * into mgmt/k8s/lib.sh's read_params, run by bash), POSIX quoting of hook arguments (shq into sh),
 * apt pins (isDebianVersion/isDebianPackageName against the scripts' own check_pin, which must never
 * be stricter nor let a pin become an option), and containerd's hosts.toml (smol-toml). Proves the
 * round trip, not what a particular program does with the value afterwards.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { hostsToml } from "../../../components/k8s-cluster/config/containerd";
import { validServer } from "../../../components/k8s-cluster/params";
import { stdinLines } from "../../../components/k8s-cluster/stdin";
import { isDebianPackageName, isDebianVersion } from "../../../components/host-files";
import { shq } from "../../../mgmt/hooks";

const LIB = path.join(__dirname, "../../../mgmt/k8s/lib.sh");
const BATCHES = 5;
const PER_BATCH = 1000;

// Text weighted towards what means something to a shell, apt, TOML or the stdin protocol.
const hostile = fc.constantFrom(..."=\"'\\$`;|&<>(){}[]*?!#~%\t -:.+".split(""), "$(id)", "`id`", "\u00e9", "\u2028", "\\n");
const text = fc.string({ unit: fc.oneof(hostile, fc.integer({ min: 0x20, max: 0xffff }).map((c) => String.fromCharCode(c))), maxLength: 30 });

function bash(script: string, input: string, args: string[] = []): string {
  const r = spawnSync("bash", ["-c", script, "_", ...args], { input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("fuzz: values reach the scripts as data", () => {
  it("stdin key=value lines come back byte for byte from read_params (lists included); a line break is refused", () => {
    for (let b = 0; b < BATCHES; b++) {
      const values = fc.sample(text.filter((s) => s !== "" && !/[\r\n]/.test(s) && !/[\uD800-\uDFFF]/.test(s)), PER_BATCH);
      const stdin = stdinLines([["ONE", values[0]], ...values.map((v): [string, string] => ["VALUES", v])]);
      const out = bash(`source "$1"; ONE="" VALUES=(); read_params ONE 'VALUES[]'; printf '%s\\0' "$ONE" "\${VALUES[@]}"`, stdin, [LIB]);
      expect(out.split("\0").slice(0, -1)).toEqual([values[0], ...values]);
    }
    expect(() => stdinLines([["A", "x\nB=y"]])).toThrow(/contains a line break/);
  });

  it("hook arguments quoted by shq are one word each for sh, unchanged", () => {
    for (let b = 0; b < BATCHES; b++) {
      const words = fc.sample(text.filter((s) => !s.includes("\0") && !/[\uD800-\uDFFF]/.test(s)), PER_BATCH);
      const r = spawnSync("sh", ["-c", `printf '%s\\0' ${words.map(shq).join(" ")}`], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      expect(r.status).toBe(0);
      expect(r.stdout.split("\0").slice(0, -1)).toEqual(words);
    }
  });

  it("apt pins: whatever Debian's grammar accepts, check_pin accepts too; nothing either accepts starts with '-' or holds a space", () => {
    const pins = fc.tuple(fc.oneof(text, fc.constantFrom("containerd", "containerd.io", "etcd-client", "-oDPkg::Pre-Invoke::=id")), fc.oneof(text, fc.constantFrom("1.7.24-1", "1:3.4.30-1+deb12u1~bpo", "-1", "1 -oX=1")));
    for (let b = 0; b < BATCHES; b++) {
      const cases = fc.sample(pins.filter(([n, v]) => !/[\0\n]/.test(n + v)), PER_BATCH);
      // One line per case: name, then version, NUL-separated; check_pin's verdict per case.
      const input = cases.map(([n, v]) => `${n}\0${v}\0`).join("");
      const out = bash(`source "$1"; while IFS= read -r -d '' n && IFS= read -r -d '' v; do if (check_pin "$n" "$v") 2>/dev/null; then echo ok; else echo no; fi; done`, input, [LIB]);
      const verdicts = out.trim().split("\n");
      cases.forEach(([n, v], i) => {
        const ts = isDebianPackageName(n) && isDebianVersion(v);
        if (ts) expect([n, v, verdicts[i]]).toEqual([n, v, "ok"]);
        if (ts || verdicts[i] === "ok") expect(`${n}=${v}`).not.toMatch(/^-|\s/);
      });
    }
  });

  it("hosts.toml: any accepted registry server comes back as the same URL from a TOML parser", () => {
    const server = fc.oneof(fc.tuple(fc.domain(), fc.integer({ min: 1, max: 65535 })).map(([h, p]) => `${h}:${p}`), text);
    fc.assert(fc.property(server, fc.constantFrom("0", "1") as fc.Arbitrary<"0" | "1">, (s, connectionType) => {
      if (!validServer(s)) return;
      const t = hostsToml({ connectionType, server: s, caPem: connectionType === "1" ? "CA" : undefined });
      const url = `${connectionType === "1" ? "https" : "http"}://${s}`;
      const parsed = parseToml(t.content) as { server: string; host: Record<string, { capabilities: string[]; ca?: string }> };
      expect(parsed.server).toBe(url);
      expect(Object.keys(parsed.host)).toEqual([url]);
      expect(parsed.host[url].capabilities).toEqual(["pull", "resolve"]);
    }), { numRuns: 3000 });
  });
});
