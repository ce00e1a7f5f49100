/**
 * Reads a `.zip` CSAR into memory, refusing entries that would escape the package: `..`
 * segments, absolute or drive paths, backslashes, and symbolic links. Sizes are bounded so that a
 * zip bomb is refused instead of exhausting memory.
 */
import yauzl from "yauzl";
import type { Diagnostic } from "../../diagnostics";

export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  /** Largest uncompressed entry. */
  maxEntryBytes: number;
  /** Largest uncompressed/compressed ratio of an entry above `ratioFloorBytes` (a zip bomb's mark; images compress 1-3:1). */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxEntryBytes: 512 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

export interface ZipContents {
  files: Map<string, Buffer>;
  diagnostics: Diagnostic[];
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why an entry name is unsafe, or undefined when it stays inside the package. */
export function unsafeEntryReason(name: string): string | undefined {
  if (name.includes("\\")) return "contains a backslash";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "is an absolute path";
  if (name.split("/").some((part) => part === "..")) return "contains `..`";
  if (name.includes("\0")) return "contains a NUL byte";
  return undefined;
}

export function readZip(path: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipContents> {
  const files = new Map<string, Buffer>();
  const diagnostics: Diagnostic[] = [];
  const fail = (code: string, message: string) => diagnostics.push({ severity: "error", code, message, file: path });
  return new Promise((resolve) => {
    // decodeStrings: false turns off yauzl's own name validation, which aborts the whole archive at
    // the first bad name; we check every name ourselves and report each one.
    yauzl.open(path, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false }, (err, zip) => {
      if (err || !zip) {
        fail("PKG_ZIP_INVALID", `not a readable zip file: ${err?.message ?? "unknown error"}`);
        resolve({ files, diagnostics });
        return;
      }
      let total = 0;
      let count = 0;
      const done = () => {
        zip.close();
        resolve({ files, diagnostics });
      };
      zip.on("error", (e: Error) => {
        fail("PKG_ZIP_INVALID", `zip read error: ${e.message}`);
        done();
      });
      zip.on("end", done);
      zip.on("entry", (entry: yauzl.Entry) => {
        count++;
        // Names are UTF-8 (general purpose flag bit 11) or CP437, which agrees with UTF-8 on ASCII.
        const name = (entry.fileName as unknown as Buffer).toString("utf8");
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        const unsafe = unsafeEntryReason(name) ?? (mode === S_IFLNK ? "is a symbolic link" : undefined);
        if (count > limits.maxEntries) {
          fail("PKG_ZIP_LIMIT", `more than ${limits.maxEntries} entries`);
          return done();
        }
        if (unsafe) {
          fail("PKG_ZIP_ESCAPE", `entry \`${name}\` ${unsafe}; it could write outside the package`);
          return zip.readEntry();
        }
        if (name.endsWith("/")) return zip.readEntry();
        // Checked on the sizes the archive declares, before inflating; yauzl holds the stream to them.
        const size = entry.uncompressedSize;
        if (size > limits.maxEntryBytes) {
          fail("PKG_ZIP_LIMIT", `entry \`${name}\` is ${size} bytes uncompressed; the limit is ${limits.maxEntryBytes}`);
          return done();
        }
        if (size > limits.ratioFloorBytes && size > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
          fail(
            "PKG_ZIP_LIMIT",
            `entry \`${name}\` expands ${Math.round(size / Math.max(entry.compressedSize, 1))}:1 (${entry.compressedSize} to ${size} bytes); the limit is ${limits.maxRatio}:1, as for a zip bomb`,
          );
          return done();
        }
        total += size;
        if (total > limits.maxTotalBytes) {
          fail("PKG_ZIP_LIMIT", `uncompressed size exceeds ${limits.maxTotalBytes} bytes`);
          return done();
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) {
            fail("PKG_ZIP_INVALID", `cannot read \`${name}\`: ${e?.message ?? "unknown error"}`);
            return zip.readEntry();
          }
          // One buffer of the declared size, filled in place: no second copy at the end.
          const content = Buffer.allocUnsafe(size);
          let filled = 0;
          stream.on("data", (c: Buffer) => {
            c.copy(content, filled);
            filled += c.length;
          });
          stream.on("error", (se: Error) => {
            fail("PKG_ZIP_INVALID", `cannot read \`${name}\`: ${se.message}`);
            zip.readEntry();
          });
          stream.on("end", () => {
            files.set(name, content.subarray(0, filled));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
