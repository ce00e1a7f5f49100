/**
 * RFC 1123 names as Kubernetes checks them (k8s.io/apimachinery IsDNS1123Label and
 * IsDNS1123Subdomain, with RFC 1123's 63 characters per label inside a subdomain too), and the
 * node names derived from a cluster's VNFC ids checked with them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nodeName, nodeNameProblems, nodeNames } from "../../../components/k8s-cluster/config/node-names";
import { parseDnsLabel, parseDnsSubdomain, parseNodeName } from "../../../components/host-files";

const ok = (r: { value: string } | { reason: string }) => "value" in r;
const reason = (r: { value: string } | { reason: string }) => ("reason" in r ? r.reason : undefined);

describe("parseDnsLabel", () => {
  it("accepts lower-case letters, digits and inner dashes, up to 63 characters", () => {
    for (const s of ["a", "0", "k8s-masternode-0", "a-b", "1a", "a".repeat(63), "x--y"]) expect(ok(parseDnsLabel(s)), s).toBe(true);
  });
  it("refuses, saying why: empty, 64 characters, upper case, an end dash, a dot, an underscore, non-ASCII, a space", () => {
    expect(["", "a".repeat(64), "Master", "-a", "a-", "a.b", "a_b", "nœud", "a b", "a\n"].map((s) => reason(parseDnsLabel(s)))).toEqual([
      "is empty",
      "is 64 characters; a DNS label has at most 63",
      "has upper-case letters; an RFC 1123 name is lower case",
      "starts or ends with `-`; an RFC 1123 label starts and ends with a letter or digit",
      "starts or ends with `-`; an RFC 1123 label starts and ends with a letter or digit",
      "has a character other than a-z, 0-9 and `-`",
      "has a character other than a-z, 0-9 and `-`",
      "has a character other than a-z, 0-9 and `-`",
      "has a character other than a-z, 0-9 and `-`",
      "has a character other than a-z, 0-9 and `-`",
    ]);
  });
});

describe("parseDnsSubdomain", () => {
  it("accepts labels joined by dots, up to 253 characters", () => {
    const long = Array.from({ length: 4 }, () => "a".repeat(63))
      .join(".")
      .slice(0, 253);
    for (const s of ["node-1", "node-1.example.com", "a.b.c", long]) expect(ok(parseDnsSubdomain(s)), s).toBe(true);
    expect(long.length).toBe(253);
  });
  it("refuses 254 characters, an empty label, a bad label (with which one), a 64-character label inside", () => {
    expect(
      [`${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`, "a..b", ".a", "a.", "a.B", "a.-b.c", `a.${"b".repeat(64)}`].map((s) =>
        reason(parseDnsSubdomain(s)),
      ),
    ).toEqual([
      "is 254 characters; a DNS subdomain has at most 253",
      "has an empty label (`..`, or a `.` at an end)",
      "has an empty label (`..`, or a `.` at an end)",
      "has an empty label (`..`, or a `.` at an end)",
      "has a label (the 2nd) that has upper-case letters; an RFC 1123 name is lower case",
      "has a label (the 2nd) that starts or ends with `-`; an RFC 1123 label starts and ends with a letter or digit",
      "has a label (the 2nd) that is 64 characters; a DNS label has at most 63",
    ]);
  });
  it("agrees with Kubernetes' own pattern on 5000 random strings of its alphabet (and upper case, _ and .)", () => {
    const k8s = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    const alphabet = fc.constantFrom(..."abz09-.A_".split(""));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 80 }).map((a) => a.join("")),
        (s) => {
          const labelsOk = s.split(".").every((l) => l.length <= 63);
          expect(ok(parseDnsSubdomain(s))).toBe(k8s.test(s) && s.length <= 253 && labelsOk);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe("parseNodeName", () => {
  it("a node name must be a label (its hostname) and so a subdomain (the Node's name)", () => {
    expect(ok(parseNodeName("k8s-workernode-1"))).toBe(true);
    expect(reason(parseNodeName("k8s.workernode-1"))).toBe(
      "is not an RFC 1123 DNS label (the node's hostname): it has a character other than a-z, 0-9 and `-`",
    );
    expect(reason(parseNodeName("K8s"))).toBe(
      "is not an RFC 1123 DNS subdomain (a Kubernetes node name): it has a label (the 1st) that has upper-case letters; an RFC 1123 name is lower case",
    );
  });
});

describe("node names from VNFC ids", () => {
  it("every derived name passes parseNodeName, whatever the cluster name and VDU id (fast-check, 5000 cases)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), fc.string({ maxLength: 300 }), fc.nat(10_000), (cluster, vdu, i) => {
        const n = nodeName(cluster, `${vdu}-${i}`);
        expect(ok(parseNodeName(n)), JSON.stringify([cluster, vdu, i, n])).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
  it("a name that is not RFC 1123 is a problem of its VNFC, not a hostname sent on", () => {
    expect(nodeNameProblems("-", ["_"]).problems).toEqual([
      { vnfcId: "_", message: "the node name  of VNFC _ is not an RFC 1123 DNS subdomain (a Kubernetes node name): it is empty" },
    ]);
    expect(() => nodeNames("-", ["_"])).toThrow("is not an RFC 1123 DNS subdomain");
  });
  it("two VNFCs with one name: every such pair is listed", () => {
    expect(nodeNameProblems("k8s", ["a_b-0", "a-b-0", "A-B-0", "c-0"]).problems.map((p) => [p.vnfcId, p.other])).toEqual([
      ["a-b-0", "a_b-0"],
      ["A-B-0", "a_b-0"],
    ]);
  });
});
