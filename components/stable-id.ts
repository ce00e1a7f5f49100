/**
 * Stable, name-based UUIDs (RFC 4122 version 5 layout over SHA-1), so that ids that Tacker would
 * generate randomly (VIM ids, VNF instance ids) stay the same on every `pulumi up`.
 */
import { createHash } from "node:crypto";

export function stableUuid(...parts: string[]): string {
  const h = createHash("sha1")
    .update(["pulumi-nfv", ...parts].join("/"))
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
