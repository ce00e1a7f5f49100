/**
 * PEM text as operators actually paste it into Tacker's vim-config.yaml.
 *
 * A multi-line certificate in a double-quoted or plain YAML scalar has its line breaks folded into
 * spaces. Tacker repairs that by turning every whitespace into a newline and re-joining the
 * `BEGIN`/`END` lines; we do the equivalent by re-reading each block's base64 body and re-wrapping
 * it, which also keeps bundles of several certificates (a cluster CA plus an OIDC CA) working.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";

/** Tacker's spellings of "no CA: do not verify TLS" (`utils.none_from_string`, case-insensitive). */
export function isNoneCa(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim().toLowerCase() === "none");
}

export interface PemBlock {
  label: string;
  /** Canonical PEM text of this block (64-column body, trailing newline). */
  pem: string;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** Every PEM block in `text`, re-wrapped; text outside blocks is ignored. Empty when there is none. */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const m of text.matchAll(BLOCK)) {
    const label = m[1].trim();
    const body = m[2].replace(/\s+/g, "");
    const lines = body.match(/.{1,64}/g) ?? [];
    blocks.push({ label, pem: `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n` });
  }
  return blocks;
}

export type PemResult = { ok: true; pem: string; count: number } | { ok: false; reason: string };

/** A CA bundle: one or more certificates that must all parse. Returns the canonical bundle. */
export function parseCertificateBundle(text: string): PemResult {
  const blocks = pemBlocks(text);
  if (blocks.length === 0) return { ok: false, reason: "no '-----BEGIN CERTIFICATE-----' block found" };
  for (const [i, block] of blocks.entries()) {
    if (block.label !== "CERTIFICATE") {
      return { ok: false, reason: `block ${i + 1} is '${block.label}', expected 'CERTIFICATE'` };
    }
    try {
      new X509Certificate(block.pem);
    } catch (err) {
      return { ok: false, reason: `certificate ${i + 1} does not parse (${(err as Error).message})` };
    }
  }
  return { ok: true, pem: blocks.map((b) => b.pem).join(""), count: blocks.length };
}

/** A private key in any PEM form Node reads (PKCS#1, PKCS#8, SEC1). */
export function parsePrivateKey(text: string): PemResult {
  const blocks = pemBlocks(text).filter((b) => b.label.endsWith("PRIVATE KEY"));
  if (blocks.length !== 1) return { ok: false, reason: `expected one PRIVATE KEY block, found ${blocks.length}` };
  try {
    createPrivateKey(blocks[0].pem);
  } catch (err) {
    return { ok: false, reason: `private key does not parse (${(err as Error).message})` };
  }
  return { ok: true, pem: blocks[0].pem, count: 1 };
}
