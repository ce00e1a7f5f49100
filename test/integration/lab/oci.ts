/** A one-layer OCI image made here (nothing is fetched from outside), pushed and pulled with skopeo. */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Writes an OCI image layout tagged `1.0` under `dir` (scratch files in `work`); returns its layer digest. */
export function buildOciImage(dir: string, work: string): { layerDigest: string } {
  const blobs = path.join(dir, "blobs/sha256");
  mkdirSync(blobs, { recursive: true });
  const content = path.join(work, "content");
  mkdirSync(content, { recursive: true });
  writeFileSync(path.join(content, "hello.txt"), `pulumi-nfv registry test ${Date.now()}\n`);
  const layerTar = path.join(work, "layer.tar");
  execFileSync("tar", ["-cf", layerTar, "-C", content, "hello.txt"]);
  const tar = readFileSync(layerTar);
  const gz = execFileSync("gzip", ["-9nc", layerTar]);
  const blob = (b: Buffer) => {
    const d = sha256(b);
    writeFileSync(path.join(blobs, d), b);
    return { digest: `sha256:${d}`, size: b.length };
  };
  const layer = blob(gz);
  const config = blob(
    Buffer.from(JSON.stringify({ architecture: "amd64", os: "linux", rootfs: { type: "layers", diff_ids: [`sha256:${sha256(tar)}`] }, config: {} })),
  );
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        config: { mediaType: "application/vnd.oci.image.config.v1+json", ...config },
        layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", ...layer }],
      }),
    ),
  );
  writeFileSync(path.join(dir, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  writeFileSync(
    path.join(dir, "index.json"),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [{ mediaType: "application/vnd.oci.image.manifest.v1+json", ...manifest, annotations: { "org.opencontainers.image.ref.name": "1.0" } }],
    }),
  );
  return { layerDigest: layer.digest };
}

/** Pushes the layout's `1.0` to `image` (`host:port/name:tag`) over plain HTTP. */
export function pushImage(layout: string, image: string): void {
  execFileSync("skopeo", ["copy", "--dest-tls-verify=false", `oci:${layout}:1.0`, `docker://${image}`], { stdio: "pipe" });
}

/** Pulls `image` back into a fresh layout under `work`; returns its layer digests. */
export function pulledLayers(image: string, work: string): string[] {
  const out = path.join(work, `pulled-${Date.now()}`);
  execFileSync("skopeo", ["copy", "--src-tls-verify=false", `docker://${image}`, `oci:${out}:1.0`], { stdio: "pipe" });
  const index = JSON.parse(readFileSync(path.join(out, "index.json"), "utf8")) as { manifests: { digest: string }[] };
  const manifest = JSON.parse(readFileSync(path.join(out, "blobs/sha256", index.manifests[0].digest.slice(7)), "utf8")) as { layers: { digest: string }[] };
  return manifest.layers.map((l) => l.digest);
}

/** True when the registry at `endpoint` answers `GET /v2/` with 200. */
export async function registryAnswers(endpoint: string): Promise<boolean> {
  try {
    return (await fetch(`http://${endpoint}/v2/`, { signal: AbortSignal.timeout(3000) })).status === 200;
  } catch {
    return false;
  }
}
