/** Debian's package name and version grammar (Policy 5.6.1, 5.6.12), as apt arguments are checked. */
import { describe, expect, it } from "vitest";
import { isDebianPackageName, isDebianVersion } from "../../../components/host-files";

describe("Debian package names and versions", () => {
  it("names: lower case, digits, + . -, starting with a letter or digit, two characters at least", () => {
    for (const ok of ["containerd", "containerd.io", "etcd-client", "g++", "libc6"]) expect(isDebianPackageName(ok), ok).toBe(true);
    for (const bad of ["-oDPkg::Pre-Invoke::=id", "Containerd", "c", "containerd io", "containerd=1", ".x", ""])
      expect(isDebianPackageName(bad), bad).toBe(false);
  });

  it("versions: [epoch:]upstream[-revision]; nothing apt reads as an option or a second argument", () => {
    for (const ok of ["1.7.24-1", "1.30.14-1.1", "1:3.4.30-1+deb12u1~bpo", "2.6.12-1", "20.10.24+dfsg1-1+b3", "1.0", "1:2:3-4", "1.2-3-4"])
      expect(isDebianVersion(ok), ok).toBe(true);
    for (const bad of ["-1", "1.7 -oAPT::X=1", "a1.0", "1.0-", "1:2-3:4", "1.0:2", "1.0-a_b", "", "1.0\n"]) expect(isDebianVersion(bad), bad).toBe(false);
  });
});
