/**
 * A fuzz of the other ways a value reaches a script, each read back by what reads it on the host,
 * thousands of cases per property and one shell per batch: the key=value stdin protocol (stdinLines
 * into mgmt/k8s/lib.sh's read_params, run by bash), POSIX quoting of hook arguments (shq into sh),
 * apt pins (isDebianVersion/isDebianPackageName against the scripts' own check_pin, which must never
 * be stricter nor let a pin become an option), containerd's hosts.toml (smol-toml), and
 * mgmt/registry/install-registry.sh's own reader (registryStdin into its read_params). Proves the
 * round trip, not what a particular program does with the value afterwards.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { hostsToml } from "../../../components/k8s-cluster/config/containerd";
import { validServer } from "../../../components/k8s-cluster/params";
import { registryStdin } from "../../../components/registry/params";
import { stdinLines } from "../../../components/k8s-cluster/stdin";
import { isDebianPackageName, isDebianVersion } from "../../../components/host-files";
import { shq } from "../../../components/vnf/hooks";

const LIB = path.join(__dirname, "../../../mgmt/k8s/lib.sh");
const INSTALL_REGISTRY = path.join(__dirname, "../../../mgmt/registry/install-registry.sh");
/** Every key install-registry.sh's read_params accepts, in its order. */
const REGISTRY_KEYS = [
  "MODE",
  "PORT",
  "REGISTRY_IMAGE",
  "IMAGE_TARBALL",
  "DOCKER_PACKAGE_VERSION",
  "REGISTRY_PACKAGE_VERSION",
  "APT_PROXY_CONF_B64",
  "PROXY_DROPIN_B64",
  "TLS_CERT_B64",
  "TLS_KEY_B64",
  "AUTH_USER",
  "AUTH_PASSWORD",
  "STORAGE_VOLUME_ID",
  "STORAGE_DIR",
] as const;
const BATCHES = 5;
const PIN_BATCHES = 2;
const PER_BATCH = 1000;

// Text weighted towards what means something to a shell, apt, TOML or the stdin protocol.
const hostile = fc.constantFrom(..."=\"'\\$`;|&<>(){}[]*?!#~%\t -:.+".split(""), "$(id)", "`id`", "\u00e9", "\u2028", "\\n");
const text = fc.string({
  unit: fc.oneof(
    hostile,
    fc.integer({ min: 0x20, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 30,
});

function bash(script: string, input: string, args: string[] = []): string {
  const r = spawnSync("bash", ["-c", script, "_", ...args], { input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("fuzz: values reach the scripts as data", () => {
  it("stdin key=value lines come back byte for byte from read_params (lists included); a line break is refused", () => {
    for (let b = 0; b < BATCHES; b++) {
      const values = fc.sample(
        text.filter((s) => s !== "" && !/[\r\n]/.test(s) && !/[\uD800-\uDFFF]/.test(s)),
        PER_BATCH,
      );
      const stdin = stdinLines([["ONE", values[0]], ...values.map((v): [string, string] => ["VALUES", v])]);
      const out = bash(`source "$1"; ONE="" VALUES=(); read_params ONE 'VALUES[]'; printf '%s\\0' "$ONE" "\${VALUES[@]}"`, stdin, [LIB]);
      expect(out.split("\0").slice(0, -1)).toEqual([values[0], ...values]);
    }
    expect(() => stdinLines([["A", "x\nB=y"]])).toThrow(/contains a line break/);
  });

  it("hook arguments quoted by shq are one word each for sh, unchanged", () => {
    for (let b = 0; b < BATCHES; b++) {
      const words = fc.sample(
        text.filter((s) => !s.includes("\0") && !/[\uD800-\uDFFF]/.test(s)),
        PER_BATCH,
      );
      const r = spawnSync("sh", ["-c", `printf '%s\\0' ${words.map(shq).join(" ")}`], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      expect(r.status).toBe(0);
      expect(r.stdout.split("\0").slice(0, -1)).toEqual(words);
    }
  });

  it("apt pins: whatever Debian's grammar accepts, check_pin accepts too; nothing either accepts starts with '-' or holds a space", () => {
    const pins = fc.tuple(
      fc.oneof(text, fc.constantFrom("containerd", "containerd.io", "etcd-client", "-oDPkg::Pre-Invoke::=id")),
      fc.oneof(text, fc.constantFrom("1.7.24-1", "1:3.4.30-1+deb12u1~bpo", "-1", "1 -oX=1")),
    );
    // A subshell per case (check_pin exits on a bad pin), so fewer cases than the other properties.
    for (let b = 0; b < PIN_BATCHES; b++) {
      const cases = fc.sample(
        pins.filter(([n, v]) => !/[\0\n]/.test(n + v)),
        PER_BATCH,
      );
      // One line per case: name, then version, NUL-separated; check_pin's verdict per case.
      const input = cases.map(([n, v]) => `${n}\0${v}\0`).join("");
      const out = bash(
        `source "$1"; while IFS= read -r -d '' n && IFS= read -r -d '' v; do if (check_pin "$n" "$v") 2>/dev/null; then echo ok; else echo no; fi; done`,
        input,
        [LIB],
      );
      const verdicts = out.trim().split("\n");
      cases.forEach(([n, v], i) => {
        const ts = isDebianPackageName(n) && isDebianVersion(v);
        if (ts) expect([n, v, verdicts[i]]).toEqual([n, v, "ok"]);
        if (ts || verdicts[i] === "ok") expect(`${n}=${v}`).not.toMatch(/^-|\s/);
      });
    }
    // 5,000 cases took 48-69 s beside the lab and the Go builds of a fresh `.ci/run` (2026-12-04),
    // past the default 20 s; this is a guard against a hang, not a target.
  }, 120_000);

  it("hosts.toml: any accepted registry server comes back as the same URL from a TOML parser", () => {
    const server = fc.oneof(
      fc.tuple(fc.domain(), fc.integer({ min: 1, max: 65535 })).map(([h, p]) => `${h}:${p}`),
      text,
    );
    fc.assert(
      fc.property(server, fc.constantFrom("0", "1") as fc.Arbitrary<"0" | "1">, (s, connectionType) => {
        if (!validServer(s)) return;
        const t = hostsToml({ connectionType, server: s, caPem: connectionType === "1" ? "CA" : undefined });
        const url = `${connectionType === "1" ? "https" : "http"}://${s}`;
        const parsed = parseToml(t.content) as { server: string; host: Record<string, { capabilities: string[]; ca?: string }> };
        expect(parsed.server).toBe(url);
        expect(Object.keys(parsed.host)).toEqual([url]);
        expect(parsed.host[url].capabilities).toEqual(["pull", "resolve"]);
      }),
      { numRuns: 3000 },
    );
  });

  it("install-registry.sh: every line registryStdin writes comes back byte for byte from the script's read_params, each key its own value; `$(...)`, backticks and `;` stay text", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nfv-fuzz-registry-"));
    const marker = path.join(dir, "evaluated");
    try {
      // Payloads that would create the marker if the reader evaluated anything.
      const payload = fc.constantFrom(
        `$(touch ${marker})`,
        `\`touch ${marker}\``,
        `; touch ${marker}`,
        `x'; touch ${marker}; '`,
        `"; touch ${marker}; "`,
        `\${IFS}$(touch\${IFS}${marker})`,
        `a=b; touch ${marker}`,
        "$HOME",
        "${PATH}",
        "*",
        "-e",
      );
      const value = fc
        .oneof(
          text,
          payload,
          fc.tuple(text, payload, text).map((t) => t.join("")),
        )
        .filter((s) => s !== "" && !/[\r\n\0]/.test(s) && !/[\uD800-\uDFFF]/.test(s));
      const params = fc
        .array(fc.tuple(fc.constantFrom(...REGISTRY_KEYS), value), { minLength: 1, maxLength: REGISTRY_KEYS.length })
        .map((kv) => Object.fromEntries(kv) as Record<string, string>);
      for (let b = 0; b < BATCHES; b++) {
        const cases = fc.sample(params, PER_BATCH);
        // One case per NUL-terminated record: every variable emptied, the case read, all 14 printed.
        const out = bash(
          `source "$1"; keys=(${REGISTRY_KEYS.join(" ")}); while IFS= read -r -d '' c; do for k in "\${keys[@]}"; do printf -v "$k" '%s' ''; done; read_params <<<"$c"; for k in "\${keys[@]}"; do printf '%s\\0' "\${!k}"; done; done`,
          cases.map((c) => `${registryStdin(c)}\0`).join(""),
          [INSTALL_REGISTRY],
        );
        expect(out.split("\0").slice(0, -1)).toEqual(cases.flatMap((c) => REGISTRY_KEYS.map((k) => c[k] ?? "")));
      }
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // 8 s beside a fresh `.ci/run`'s builds (2026-12-04): a guard against a hang, not a target.
  }, 60_000);

  it("install-registry.sh's stdin: a value with a line break is refused before it is written, never a second line", () => {
    const withBreak = fc.tuple(text, fc.constantFrom("\n", "\r", "\r\n"), fc.constantFrom(...REGISTRY_KEYS), text).map(([a, br, k, b]) => `${a}${br}${k}=${b}`);
    fc.assert(
      fc.property(fc.constantFrom(...REGISTRY_KEYS), withBreak, (k, v) => {
        expect(() => registryStdin({ [k]: v })).toThrow(`registry parameter ${k} contains a newline`);
      }),
      { numRuns: 2000 },
    );
  });
});
