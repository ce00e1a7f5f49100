/**
 * Zip archives written here, for tests that need a `.zip` package: deflated regular files,
 * directory entries and symbolic links (Unix mode in the external attributes), no zip tool needed.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

export type ZipEntry = { name: string; content: Buffer | string } | { name: string; directory: true } | { name: string; symlinkTo: string };

export function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from("directory" in e ? (e.name.endsWith("/") ? e.name : `${e.name}/`) : e.name);
    const raw = "content" in e ? Buffer.from(e.content) : "symlinkTo" in e ? Buffer.from(e.symlinkTo) : Buffer.alloc(0);
    const mode = "directory" in e ? 0o040755 : "symlinkTo" in e ? 0o120777 : 0o100644;
    const method = raw.length > 0 ? 8 : 0;
    const data = method === 8 ? deflateRawSync(raw) : raw;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Every regular file under `dir` as entries (package-relative names), then `extra`. */
export function zipDirectory(dir: string, extra: ZipEntry[] = []): Buffer {
  const entries: ZipEntry[] = [];
  const walk = (at: string) => {
    for (const d of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, d.name);
      if (d.isDirectory()) walk(full);
      else if (d.isFile()) entries.push({ name: path.relative(dir, full).split(path.sep).join("/"), content: readFileSync(full) });
    }
  };
  walk(dir);
  return zipOf([...entries, ...extra]);
}

/** Writes `zipDirectory(dir, extra)` to `file`; returns `file`. */
export function writeZipPackage(file: string, dir: string, extra: ZipEntry[] = []): string {
  writeFileSync(file, zipDirectory(dir, extra));
  return file;
}
