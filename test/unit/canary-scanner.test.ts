/**
 * The canary scanner of the integration tests (test/integration/lab/canary.ts): it finds a
 * registered secret in every form it claims (plain, base64 at the three byte alignments, standard
 * and URL-safe, across line breaks, URL-encoded, JSON-escaped once and twice), wherever it sits in
 * a larger text or encoded blob, and says nothing when the secret is not there (another canary,
 * one character changed, the prefix alone, random data).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Core, CANARY_PREFIX, describeHits, encodedForms, scanText, SecretRegistry } from "../integration/lab/canary";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");

describe("canary values", () => {
  it("nfvcanary-<purpose>-<16 base-36 characters>, each new, the purpose checked", () => {
    const r = new SecretRegistry();
    const a = r.canary("ssh-password");
    const b = r.canary("ssh-password");
    expect(a).toMatch(new RegExp(`^${CANARY_PREFIX}-ssh-password-[a-z0-9]{16}$`));
    expect(a).not.toBe(b);
    expect(r.all().map((s) => [s.purpose, s.canary])).toEqual([
      ["ssh-password", true],
      ["ssh-password", true],
    ]);
    expect(() => r.canary("Bad Purpose")).toThrow(/use a-z, 0-9 and -/);
    expect(() => r.register("short", "abc")).toThrow(/too short to scan for/);
  });
});

describe("scanText finds each form", () => {
  const r = new SecretRegistry();
  const value = r.canary("helm-password");
  // A lab secret with characters that every encoding changes.
  const odd = 'pa ss/wörd+"quoted"&=%';
  r.register("lab-password", odd);
  const among = r.all();
  const formsOf = (text: string, which = value) =>
    scanText(
      text,
      "t",
      among.filter((s) => s.value === which),
    ).map((h) => h.form);

  it("plain, inside other text", () => {
    expect(formsOf(`{"user":"u","password":"${value}"}`)).toContain("plain");
  });

  it("base64 and base64url, at each of the three byte alignments inside a larger blob", () => {
    for (const prefix of ["", "x", "xy", "xyz", "0123456789abc"]) {
      const blob = `${prefix}password=${value};more=stuff`;
      const alignment = (prefix.length + "password=".length) % 3;
      const at = (forms: string[]) => forms.filter((f) => f.endsWith(`(alignment ${alignment})`));
      expect(at(formsOf(`data: ${b64(blob)}\n`)), `prefix ${prefix.length}`).toEqual([expect.stringMatching(/^base64 /)]);
      expect(at(formsOf(`data: ${b64url(blob)}\n`)), `prefix ${prefix.length}`).toEqual([expect.stringMatching(/^base64(url| or base64url) /)]);
    }
  });

  it("base64 wrapped at 76 characters (MIME, the base64 tool)", () => {
    const wrapped = b64(`${"filler ".repeat(20)}${value}${" filler".repeat(20)}`).replace(/(.{76})/g, "$1\n");
    expect(wrapped.split("\n").every((l) => !l.includes(base64Core(Buffer.from(value), 0)))).toBe(true);
    expect(formsOf(wrapped).some((f) => f.endsWith("across line breaks"))).toBe(true);
  });

  it("URL-encoded (upper and lower-case hex, form encoding) and JSON-escaped once and twice", () => {
    expect(formsOf(`https://h/?p=${encodeURIComponent(odd)}`, odd)).toContain("URL-encoded");
    expect(formsOf(`https://h/?p=${encodeURIComponent(odd).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`, odd)).toContain("URL-encoded (lower-case hex)");
    expect(formsOf(`p=${encodeURIComponent(odd).replace(/%20/g, "+")}`, odd)).toContain("form-encoded");
    const once = JSON.stringify({ password: odd });
    expect(formsOf(once, odd)).toContain("JSON-escaped");
    expect(formsOf(JSON.stringify({ event: once }), odd)).toContain("JSON-escaped twice");
    expect(formsOf(JSON.stringify({ password: odd }).replace(/ö/g, "\\u00f6"), odd)).toContain("JSON-escaped (ASCII only)");
  });

  it("every form encodedForms lists is found when the text holds it (fast-check, 2000 secrets and surroundings)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 60 }), fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (secret, before, after) => {
        const reg = new SecretRegistry();
        reg.register("p", secret);
        for (const f of encodedForms(secret)) {
          expect(scanText(`${before}${f.needle}${after}`, "t", reg.all()).length, f.form).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("says where, which secret and which form, never the value", () => {
    const text = describeHits(scanText(`x ${value} y`, "stack export of it-x after up", among));
    expect(text).toBe("stack export of it-x after up: the helm-password secret, plain, at character 2");
    expect(text).not.toContain(value);
  });
});

describe("scanText does not cry wolf", () => {
  const r = new SecretRegistry();
  const value = r.canary("bearer-token");
  const among = r.all();

  it("another canary, the same one with one character changed, its prefix, half of it: nothing", () => {
    const other = new SecretRegistry().canary("bearer-token");
    const changed = value.slice(0, -1) + (value.endsWith("a") ? "b" : "a");
    for (const text of [
      other,
      changed,
      `${CANARY_PREFIX}-bearer-token-`,
      value.slice(0, value.length / 2),
      b64(other),
      b64(changed),
      encodeURIComponent(changed),
      JSON.stringify({ t: other }),
    ]) {
      expect(scanText(text, "t", among), text).toEqual([]);
    }
  });

  it("random text and random base64 (fast-check, 3000 cases of up to 4 KiB)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4096 }), fc.uint8Array({ maxLength: 3072 }), (text, bytes) => {
        expect(scanText(text, "t", among)).toEqual([]);
        expect(scanText(Buffer.from(bytes).toString("base64"), "t", among)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it("a state export full of ciphertext and a kubeconfig with other base64: nothing", () => {
    const state = JSON.stringify({
      outputs: {
        token: {
          "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
          ciphertext: `v1:${b64("x".repeat(40))}:${b64(value).split("").reverse().join("")}`,
        },
      },
      kubeconfig: b64(`apiVersion: v1\nusers:\n- name: u\n  user:\n    token: ${new SecretRegistry().canary("bearer-token")}\n`),
    });
    expect(scanText(state, "t", among)).toEqual([]);
  });
});

describe("the process list sampler", () => {
  it("sees a secret on a command line, plain or encoded, even one registered after the process started; not one that was never there", async () => {
    const { ProcessSampler } = await import("../integration/lab/process-list");
    const { spawn } = await import("node:child_process");
    const r = new SecretRegistry();
    const onCmdLine = r.canary("curl-header");
    const inBase64 = r.canary("basic-auth");
    const absent = r.canary("never-used");
    const sampler = new ProcessSampler(100);
    const procs = [
      spawn("sh", ["-c", "sleep 3", "sh", `Authorization: Bearer ${onCmdLine}`], { stdio: "ignore" }),
      spawn("sh", ["-c", "sleep 3", "sh", `Basic ${b64(`user:${inBase64}`)}`], { stdio: "ignore" }),
    ];
    try {
      await new Promise((w) => setTimeout(w, 700));
      sampler.lookFor(r.all());
      const result = await sampler.finish();
      expect(result.commandLines).toBeGreaterThan(2);
      expect(result.hits.map((h) => [h.purpose, h.argv0]).sort()).toEqual([
        ["basic-auth", "sh"],
        ["curl-header", "sh"],
      ]);
      expect(result.hits.find((h) => h.purpose === "curl-header")?.form).toBe("plain");
      expect(result.hits.find((h) => h.purpose === "basic-auth")?.form).toMatch(/^base64/);
      expect(JSON.stringify(result)).not.toContain(onCmdLine);
      expect(result.hits.some((h) => h.purpose === "never-used")).toBe(false);
      expect(absent).toMatch(/^nfvcanary-never-used-/);
    } finally {
      for (const p of procs) p.kill();
    }
  });
});
