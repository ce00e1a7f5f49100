/**
 * A file the user names (a hook script, a vim `file:`, an instantiate_request, an SSH key): a
 * regular file this process can read, checked before anything is registered. `existsSync` alone let
 * a directory through, to fail later as a raw EISDIR with no file, line or field.
 */
import { accessSync, constants, statSync } from "node:fs";
import type { DiagnosticBag, SourceLocation } from "./diagnostics";

/** Why `file` cannot be read as a regular file; undefined when it can. Symbolic links to a file are fine (the user's own path). */
export function unreadableFile(file: string): string | undefined {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return "does not exist";
  }
  if (stat.isDirectory()) return "is a directory, not a file";
  if (!stat.isFile()) return "is not a regular file";
  try {
    accessSync(file, constants.R_OK);
  } catch {
    return "cannot be read (permission denied)";
  }
  return undefined;
}

/** Reports `file` (named `field`) at `where` unless it is a readable regular file; true when it reported. */
export function checkFile(file: string, field: string, where: SourceLocation, bag: DiagnosticBag): boolean {
  const reason = unreadableFile(file);
  if (reason) bag.error(reason === "does not exist" ? "CONFIG_FILE_MISSING" : "CONFIG_NOT_A_FILE", `${field} ${file} ${reason}`, where);
  return reason !== undefined;
}
