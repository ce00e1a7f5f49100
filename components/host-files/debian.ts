/**
 * Debian's grammar for what becomes one `apt-get install name=version` argument (Debian Policy
 * 5.6.1 Package, 5.6.12 Version). Checked as a grammar, not filtered: a name starts with a letter
 * or digit, so nothing that apt would read as an option (`-o DPkg::Pre-Invoke=…`) passes.
 */

/** `[a-z0-9][a-z0-9+.-]+`: lower case, at least two characters. */
export function isDebianPackageName(s: string): boolean {
  return /^[a-z0-9][a-z0-9+.-]+$/.test(s);
}

/**
 * `[epoch:]upstream[-revision]`: the epoch digits; the upstream version starts with a digit and has
 * `:` only after an epoch and `-` only before a revision; the revision has no `-` or `:`.
 */
export function isDebianVersion(s: string): boolean {
  const m = /^(?:(\d+):)?(.+)$/.exec(s);
  if (!m) return false;
  const [, epoch, rest] = m;
  const dash = rest.lastIndexOf("-");
  const upstream = dash < 0 ? rest : rest.slice(0, dash);
  const revision = dash < 0 ? undefined : rest.slice(dash + 1);
  const upstreamChars = epoch === undefined ? /^[0-9][A-Za-z0-9.+~-]*$/ : /^[0-9][A-Za-z0-9.+~:-]*$/;
  return upstreamChars.test(upstream) && (revision === undefined || /^[A-Za-z0-9+.~]+$/.test(revision));
}
