/**
 * Canary secrets for the integration tests: recognisable values (`nfvcanary-<purpose>-<random>`)
 * that a test gives to every secret input of its stacks, and a scanner that looks for them, and for
 * the lab's own secrets registered beside them (a bearer token, a database password, a private
 * key), in any text: plain, base64 at each of the three byte alignments (standard and URL-safe,
 * as when the value sits anywhere inside a larger encoded blob), URL-encoded, and JSON-escaped
 * (once and twice). Pure: no files, no processes (see canary-watch.ts for where it looks).
 */
import { randomBytes } from "node:crypto";

export const CANARY_PREFIX = "nfvcanary";

export interface Secret {
  /** What the value is for (`ssh-password`, `bearer-token`, …). */
  purpose: string;
  value: string;
  /** A canary: made by `canary()`, or a committed value of that form (else a lab's secret, registered as it is). */
  canary: boolean;
}

export interface Form {
  form: string;
  needle: string;
}

export interface Hit {
  /** Where (a file, `process list`, `stack export of it-registry after up #2`, …). */
  place: string;
  purpose: string;
  form: string;
  /** Character offset of the first occurrence in the text scanned. */
  offset: number;
}

/** Forms shorter than this are not searched: too short to be told from chance. */
export const MIN_NEEDLE = 12;

export class SecretRegistry {
  private readonly byValue = new Map<string, Secret>();

  /** A new canary for `purpose` (lower case, digits, `-`): `nfvcanary-<purpose>-<16 random base-36 characters>`. */
  canary(purpose: string): string {
    if (!/^[a-z0-9-]+$/.test(purpose)) throw new Error(`canary purpose ${JSON.stringify(purpose)}: use a-z, 0-9 and -`);
    const random = [...randomBytes(16)].map((b) => (b % 36).toString(36)).join("");
    const value = `${CANARY_PREFIX}-${purpose}-${random}`;
    this.byValue.set(value, { purpose, value, canary: true });
    return value;
  }

  /** A secret that is not ours to choose (the lab's token, a generated password or key): scanned for as it is. */
  register(purpose: string, value: string): void {
    if (value.length < MIN_NEEDLE) throw new Error(`secret ${purpose} is ${value.length} characters: too short to scan for (at least ${MIN_NEEDLE})`);
    if (!this.byValue.has(value)) this.byValue.set(value, { purpose, value, canary: value.includes(`${CANARY_PREFIX}-`) });
  }

  all(): Secret[] {
    return [...this.byValue.values()];
  }

  clear(): void {
    this.byValue.clear();
  }
}

/** The registry of this test file (vitest gives each integration file its own module instances). */
export const secrets = new SecretRegistry();

/** `secrets.canary(purpose)`. */
export function canary(purpose: string): string {
  return secrets.canary(purpose);
}

/**
 * The characters of base64(… value …) that depend on the value alone, when the value starts at byte
 * offset `alignment` (mod 3) of the encoded data: the groups of four that straddle the value's ends
 * depend on the bytes around it, and are left out.
 */
export function base64Core(value: Buffer, alignment: 0 | 1 | 2): string {
  const encoded = Buffer.concat([Buffer.alloc(alignment, 0), value]).toString("base64");
  const start = alignment === 0 ? 0 : 4;
  const end = Math.floor((alignment + value.length) / 3) * 4;
  return end > start ? encoded.slice(start, end) : "";
}

/** Every form of `value` the scanner looks for, each once (forms equal to another are merged). */
export function encodedForms(value: string): Form[] {
  const bytes = Buffer.from(value, "utf8");
  const forms: Form[] = [{ form: "plain", needle: value }];
  for (const a of [0, 1, 2] as const) {
    const core = base64Core(bytes, a);
    const urlSafe = core.replace(/\+/g, "-").replace(/\//g, "_");
    if (urlSafe === core) forms.push({ form: `base64 or base64url (alignment ${a})`, needle: core });
    else forms.push({ form: `base64 (alignment ${a})`, needle: core }, { form: `base64url (alignment ${a})`, needle: urlSafe });
  }
  const url = encodeURIComponent(value);
  forms.push({ form: "URL-encoded", needle: url });
  forms.push({ form: "URL-encoded (lower-case hex)", needle: url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) });
  forms.push({ form: "form-encoded", needle: url.replace(/%20/g, "+") });
  const json = JSON.stringify(value).slice(1, -1);
  forms.push({ form: "JSON-escaped", needle: json });
  forms.push({ form: "JSON-escaped twice", needle: JSON.stringify(json).slice(1, -1) });
  forms.push({ form: "JSON-escaped (ASCII only)", needle: json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) });
  const seen = new Set<string>();
  return forms.filter((f) => f.needle.length >= MIN_NEEDLE && !seen.has(f.needle) && seen.add(f.needle));
}

/**
 * Every registered secret found in `text`, in any form, once per secret and form. Base64 is also
 * looked for across line breaks (MIME and PEM wrap it at 64 or 76 characters).
 */
export function scanText(text: string, place: string, among: Secret[] = secrets.all()): Hit[] {
  const hits: Hit[] = [];
  let unwrapped: string | undefined;
  for (const s of among) {
    for (const f of encodedForms(s.value)) {
      let offset = text.indexOf(f.needle);
      let form = f.form;
      if (offset < 0 && f.form.startsWith("base64")) {
        unwrapped ??= text.replace(/\r?\n/g, "");
        offset = unwrapped.indexOf(f.needle);
        form = `${f.form}, across line breaks`;
      }
      if (offset >= 0) hits.push({ place, purpose: s.purpose, form, offset });
    }
  }
  return hits;
}

/** One line per hit, for a test failure: where, which secret (never its value), in which form. */
export function describeHits(hits: Hit[]): string {
  return hits.map((h) => `${h.place}: the ${h.purpose} secret, ${h.form}, at character ${h.offset}`).join("\n");
}
