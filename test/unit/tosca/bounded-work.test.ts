/**
 * Work bounded by the input's size, not its square: the position-keeping YAML pass on one huge
 * mapping, TOSCA.meta listing one file in many blocks, zip entries that inflate far beyond their
 * size; and a `__proto__` key in the fast YAML path. Timings are bounds with a wide margin (the
 * quadratic pass took 18 s on 40k keys), not benchmarks.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import type { Diagnostic } from "../../../translators/diagnostics";
import { MemorySource } from "../../../translators/tosca/phase1-read/package-source";
import { parseMetaFile } from "../../../translators/tosca/phase1-read/tosca-meta";
import { verifyHashes } from "../../../translators/tosca/phase1-read/verify-hashes";
import { DEFAULT_ZIP_LIMITS, readZip } from "../../../translators/tosca/phase1-read/zip";
import { parseBlockYaml } from "../../../translators/tosca/phase2-load/block-yaml";
import { parseYamlFast } from "../../../translators/tosca/phase2-load/fast-yaml";
import { parseYaml } from "../../../translators/yaml/located-yaml";

describe("the position-keeping YAML pass", () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: v${i}`).join("\n") + "\n";

  // No clock in the assertion (a loaded CI machine is no measure): quadratic work on 40k keys is
  // over a billion steps, which the test's timeout stops; linear work takes about a second.
  it("is linear in the keys of one mapping: 40k keys parsed and every key located within the timeout", () => {
    const text = keys(40_000);
    const doc = parseYaml(text, "big.yaml").documents[0];
    for (let i = 0; i < 40_000; i++) expect(doc.location([`k${i}`])?.line).toBe(i + 1);
    expect(doc.location(["k39999"])).toMatchObject({ line: 40_000, column: 9 });
  }, 30_000);

  it("still finds a duplicate key in a large mapping, at its line, as the parser did", () => {
    const text = keys(20_000) + "k17: again\n";
    const r = parseYaml(text, "dup.yaml");
    expect(r.documents).toEqual([]);
    expect(r.diagnostics.items.map((d) => [d.code, d.line, d.column])).toEqual([["YAML_DUPLICATE_KEY", 20_001, 1]]);
    // Keys equal in value but not in type are different keys, as in the parser's own check.
    expect(parseYaml("1: a\n'1': b\n", "t.yaml").diagnostics.items).toEqual([]);
    expect(parseYaml("a:\n  - {x: 1, x: 2}\n", "n.yaml").diagnostics.items.map((d) => [d.code, d.line, d.column])).toEqual([["YAML_DUPLICATE_KEY", 2, 12]]);
  }, 30_000);
});

describe("a `__proto__` key in the fast YAML path", () => {
  it("is an own key of its mapping, as js-yaml and the located parser read it, never the prototype", () => {
    for (const text of ["__proto__:\n  polluted: 1\nb: 2\n", "m: {__proto__: {polluted: 1}, b: 2}\n"]) {
      const block = parseBlockYaml(text, 100) as Record<string, unknown>;
      const fast = parseYamlFast(text, "p.yaml").value as Record<string, unknown>;
      const located = parseYaml(text, "p.yaml").documents[0].value;
      for (const v of [block, fast]) {
        const m = (text.startsWith("m:") ? v.m : v) as Record<string, unknown>;
        expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
        expect(Object.keys(m)).toEqual(["__proto__", "b"]);
        expect(m.polluted).toBeUndefined();
        expect(v).toEqual(located);
      }
    }
  });
});

describe("TOSCA.meta listing one file in many blocks", () => {
  it("hashes the file once per algorithm, however many blocks list it with other hashes", () => {
    const content = Buffer.alloc(1024 * 1024, 7);
    const right = createHash("sha256").update(content).digest("hex");
    const blocks = Array.from(
      { length: 100 },
      (_, i) => `Name: Files/big.bin\nAlgorithm: SHA-256\nHash: ${i === 0 ? right : i.toString(16).padStart(64, "0")}\n`,
    );
    blocks.push(`Name: Files/big.bin\nAlgorithm: SHA-512\nHash: ${"0".repeat(128)}\n`);
    const meta = `TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-by: t\nEntry-Definitions: d.yaml\n\n${blocks.join("\n")}`;
    const diagnostics: Diagnostic[] = [];
    const { artifacts } = parseMetaFile(meta, "TOSCA-Metadata/TOSCA.meta", "TOSCA.meta", diagnostics);
    expect(artifacts).toHaveLength(101);
    // verify-hashes loads node:crypto with require: the same module object.
    const spy = vi.spyOn(createRequire(__filename)("node:crypto") as typeof import("node:crypto"), "createHash");
    verifyHashes(new MemorySource("pkg", new Map([["Files/big.bin", content]])), artifacts, diagnostics, []);
    expect(spy.mock.calls.map((c) => c[0])).toEqual(["sha256", "sha512"]);
    spy.mockRestore();
    expect(diagnostics.filter((d) => d.code === "PKG_HASH_MISMATCH")).toHaveLength(100);
  });
});

/** A zip of one stored-deflated entry, written here: no zip tool is needed. */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content, { level: 9 });
  const n = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(n.length, 28);
  const end = Buffer.alloc(22);
  const cdOffset = local.length + n.length + data.length;
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + n.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, n, data, central, n, end]);
}

describe("zip entry limits", () => {
  const dir = mkdtempSync(join(tmpdir(), "zip-limits-"));
  const write = (file: string, content: Buffer) => {
    const p = join(dir, file);
    writeFileSync(p, zipOf("Files/zeros.bin", content));
    return p;
  };

  it("an entry that inflates far beyond its size is refused before it is inflated, naming the entry and the ratio", async () => {
    const bomb = write("bomb.zip", Buffer.alloc(8 * 1024 * 1024));
    const r = await readZip(bomb);
    expect(r.files.size).toBe(0);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: "PKG_ZIP_LIMIT",
        file: bomb,
        message: expect.stringMatching(/^entry `Files\/zeros.bin` expands \d+:1 .* the limit is 200:1/),
      }),
    ]);
  });

  it("an entry over the size limit is refused; an incompressible one within the limits is read whole", async () => {
    const random = Buffer.from(Array.from({ length: 2 * 1024 * 1024 }, (_, i) => (i * 2654435761) >>> 24));
    const ok = write("ok.zip", random);
    const read = await readZip(ok);
    expect(read.diagnostics).toEqual([]);
    expect(read.files.get("Files/zeros.bin")?.equals(random)).toBe(true);
    const big = await readZip(ok, { ...DEFAULT_ZIP_LIMITS, maxEntryBytes: 1024 * 1024 });
    expect(big.diagnostics.map((d) => d.message)).toEqual([`entry \`Files/zeros.bin\` is ${random.length} bytes uncompressed; the limit is 1048576`]);
  });
});
