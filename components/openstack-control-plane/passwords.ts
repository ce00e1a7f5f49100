/**
 * The control plane's internal passwords (database users, RabbitMQ users, service users, the
 * memcache key), each derived from one secret seed: none is stored, each differs from the others,
 * and the same seed gives the same passwords at every `up`, so nothing is rotated by accident.
 */
import { createHmac } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** Returns the password of each purpose (`identity:nova`, `db:admin`, ...), secret. */
export function passwordsFrom(seed: pulumi.Input<string>): (purpose: string) => pulumi.Output<string> {
  const secretSeed = pulumi.secret(seed);
  // base64url: no character that would need quoting in the URLs and INI files they end up in.
  return (purpose) => secretSeed.apply((s) => derivePassword(s, purpose));
}

/** HMAC-SHA256 of the purpose under the seed, 32 characters of base64url. */
export function derivePassword(seed: string, purpose: string): string {
  if (seed.length < 16) throw new Error("passwordSeed: at least 16 characters are needed");
  return createHmac("sha256", seed).update(purpose).digest("base64url").slice(0, 32);
}
