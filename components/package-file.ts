/**
 * The one way a component reads a package file that a parameter names (`certificate_path`,
 * `helm_installation_script_path`, registry `image_path`, an uploaded VDU image): through the
 * package's source, a directory or a `.zip` alike, package-relative, inside the package, never
 * through a symbolic link, a regular file (`findPackageFile`). What must be copied as a file (an
 * image tarball, a Glance upload) is the package's own file for a directory, and for a zip its
 * entry written once to a private, content-addressed cache (`packageFileOnDisk`).
 */
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { DirectorySource, findPackageFile, readPackageFile, type PackageSource } from "../translators/tosca/phase1-read/package-source";

/** What a component was given to find its package in. */
export interface PackageGiven {
  /** The package as read (`openPackage(path).source`): a directory, a zip, anything. */
  packageSource?: PackageSource;
  /** A package directory on disk (a zip must come as `packageSource`: it is read asynchronously). */
  packageDir?: string;
}

/** The package source a component reads its files through; a reason when `packageDir` cannot be one. */
export function componentPackageSource(given: PackageGiven): { source?: PackageSource; reason?: string } {
  if (given.packageSource) return { source: given.packageSource };
  if (given.packageDir === undefined) return {};
  let isDir = false;
  try {
    isDir = statSync(given.packageDir).isDirectory();
  } catch {
    return { reason: `the package ${given.packageDir} does not exist` };
  }
  if (isDir) return { source: new DirectorySource(given.packageDir, given.packageDir) };
  return { reason: `the package ${given.packageDir} is not a directory: give a zip package as packageSource (openPackage(path).source)` };
}

/** `rel`'s content, read through the source: the reason names the path's problem, never content. */
export function componentPackageFile(given: PackageGiven, rel: string): { file: string; content: Buffer } | { reason: string } {
  const { source, reason } = componentPackageSource(given);
  if (!source) return { reason: reason ? `cannot be read: ${reason}` : "is given but there is no package to take it from" };
  return readPackageFile(source, rel);
}

/** Where `rel` is on disk, to be copied as a file: the package's own file (directory) or its cached copy (zip). */
export function componentPackageFileOnDisk(given: PackageGiven, rel: string): { file: string; path: string } | { reason: string } {
  const { source, reason } = componentPackageSource(given);
  if (!source) return { reason: reason ? `cannot be read: ${reason}` : "is given but there is no package to take it from" };
  const found = findPackageFile(source, rel);
  if ("reason" in found) return found;
  if (source instanceof DirectorySource) {
    const local = source.localPath(found.file);
    return local ? { file: found.file, path: local } : { reason: `could not be read from the package ${source.name}` };
  }
  const content = source.read(found.file);
  if (!content) return { reason: `could not be read from the package ${source.name}` };
  try {
    return { file: found.file, path: cachedCopy(content, path.posix.basename(found.file)) };
  } catch (e) {
    return { reason: `could not be copied out of the package ${source.name}: ${(e as Error).message}` };
  }
}

/** `$NFV_PACKAGE_FILE_CACHE`, else `$XDG_CACHE_HOME/pulumi-nfv/package-files`, else `~/.cache/pulumi-nfv/package-files`. */
export function packageFileCacheDir(): string {
  if (process.env.NFV_PACKAGE_FILE_CACHE) return process.env.NFV_PACKAGE_FILE_CACHE;
  return path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "pulumi-nfv", "package-files");
}

/**
 * `content` at `<cache>/<sha256>/<name>`, written once (temporary file, then rename): the same
 * entry always has the same path, so a second `pulumi up` sees the same asset. The cache directory
 * must be this user's alone (mode 0700, not a symbolic link), as a zip's files may be secrets.
 */
function cachedCopy(content: Buffer, name: string): string {
  const root = packageFileCacheDir();
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const st = lstatSync(root);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) {
    throw new Error(`${root} must be a directory of this user's alone (mode 0700)`);
  }
  const dir = path.join(root, createHash("sha256").update(content).digest("hex"));
  const target = path.join(dir, name);
  try {
    const t = lstatSync(target);
    if (t.isFile() && t.size === content.length) return target;
  } catch {
    // not there yet
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${target}.${process.pid}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    for (let off = 0; off < content.length;) off += writeSync(fd, content, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, target);
  return target;
}
