/** A name as part of a resource name: lower case, each run of other characters than letters and digits one `-`. */
export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
