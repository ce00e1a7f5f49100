import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticError } from "../../../translators/diagnostics";
import { indentFoldedQuotedScalars, parseVimConfig, readVimConfigFile } from "../../../translators/tacker/vim-config";

const FIXTURES = path.join(__dirname, "../../fixtures");
const SHARED_VIMS = path.join(__dirname, "../../../../shared/vnf-packages/vim");
const SEED = path.join(__dirname, "../../../../shared/reference/seeds/000_c6d9036af869d7de.txt");
const CA_A = readFileSync(path.join(FIXTURES, "pki/ca-a.crt"), "utf8");
const CA_B = readFileSync(path.join(FIXTURES, "pki/ca-b.crt"), "utf8");

describe("Tacker vim-config.yaml samples", () => {
  const samples = readdirSync(SHARED_VIMS).filter((f) => f.endsWith(".yaml"));

  it("finds the four shared samples", () => {
    expect(samples.sort()).toEqual(["kubernetes-vim-bearer.yaml", "kubernetes-vim-helm.yaml", "openstack-vim-getting-started.yaml", "openstack-vim.yaml"]);
  });

  it.each(samples)("loads %s without error", (file) => {
    const { spec, bag } = readVimConfigFile(path.join(SHARED_VIMS, file));
    expect(bag.errors()).toEqual([]);
    expect(spec.type).toBe(file.startsWith("kubernetes") ? "kubernetes" : "openstack");
  });

  it("reads the OpenStack sample field for field", () => {
    expect(readVimConfigFile(path.join(SHARED_VIMS, "openstack-vim.yaml")).spec).toEqual({
      type: "openstack",
      authUrl: "http://127.0.0.1/identity",
      username: "nfv_user",
      password: "mySecretPW",
      projectName: "nfv",
      projectDomainName: "Default",
      userDomainName: "Default",
      certVerify: true,
    });
  });

  it("uses domain_name for both domains when they are absent, and keeps explicit ones", () => {
    const { spec } = parseVimConfig(
      "auth_url: http://k/identity\nusername: u\npassword: p\nproject_name: x\ndomain_name: corp\nuser_domain_name: users\n",
      "d.yaml",
    );
    expect(spec).toMatchObject({ projectDomainName: "corp", userDomainName: "users" });
  });

  it("reads ssl_ca_cert None as 'do not verify' and the helm extra", () => {
    const { spec, bag } = readVimConfigFile(path.join(SHARED_VIMS, "kubernetes-vim-helm.yaml"));
    expect(spec).toEqual({
      type: "kubernetes",
      authUrl: "https://127.0.0.1:6443",
      bearerToken: "secret_token",
      sslCaCert: null,
      projectName: "default",
      extra: { use_helm: true },
    });
    expect(bag.warnings().map((w) => w.code)).toEqual(["VIM_HELM_WITHOUT_CA"]);
  });

  it.each(["seed-openstack.yaml", "seed-kubernetes-bearer.yaml", "seed-kubernetes-basic.yaml"])("loads the design document's example %s", (file) => {
    const text = readFileSync(path.join(FIXTURES, "vim", file), "utf8");
    // The fixture is a verbatim copy of the seed document's example.
    expect(readFileSync(SEED, "utf8")).toContain(text.trimEnd());
    const { spec } = parseVimConfig(text, file);
    if (spec.type === "kubernetes") {
      expect(spec.sslCaCert).toMatch(/^-----BEGIN CERTIFICATE-----\nMIIDUzCCAjugAwIBAgIJANPOjG38TA\+f/);
      expect(spec.sslCaCert!.split("\n").every((l) => l.length <= 64)).toBe(true);
      expect(spec.projectName).toBe("default");
    } else {
      expect(spec).toMatchObject({ username: "admin", projectName: "demo", projectDomainName: "Default" });
    }
  });

  it("warns, naming the line, when it accepts Tacker's unindented quoted certificate", () => {
    const { bag } = parseVimConfig(readFileSync(path.join(FIXTURES, "vim/seed-kubernetes-basic.yaml"), "utf8"), "basic.yaml");
    expect(bag.warnings()).toEqual([expect.objectContaining({ code: "VIM_UNINDENTED_SCALAR", file: "basic.yaml", line: 4 })]);
  });
});

describe("PEM repair", () => {
  const body = CA_A.split("\n").slice(1, -2);

  it("repairs a certificate whose line breaks YAML folded into spaces", () => {
    const folded = `-----BEGIN CERTIFICATE----- ${body.join(" ")} -----END CERTIFICATE-----`;
    const yaml = `type: kubernetes\nauth_url: https://k:6443\nbearer_token: t\nssl_ca_cert: "${folded}"\n`;
    const { spec } = parseVimConfig(yaml, "folded.yaml");
    expect(spec.type === "kubernetes" && spec.sslCaCert).toBe(CA_A);
  });

  it("keeps a bundle of two certificates, in order", () => {
    const yaml = `type: kubernetes\nauth_url: https://k:6443\nbearer_token: t\nssl_ca_cert: |\n${(CA_A + CA_B).replace(/^/gm, "  ")}`;
    const { spec } = parseVimConfig(yaml, "bundle.yaml");
    expect(spec.type === "kubernetes" && spec.sslCaCert).toBe(CA_A + CA_B);
  });

  it("only indents continuation lines of an open double-quoted value", () => {
    const r = indentFoldedQuotedScalars('a: "x\ny"\nb: "z"\nc: |\n  q\n');
    expect(r).toEqual({ text: 'a: "x\n  y"\nb: "z"\nc: |\n  q\n', lines: [1] });
  });
});

/** Each bad config: its text, and the code, line and column the first error must carry. */
const BAD: [string, string, string, number, number][] = [
  ["missing auth_url", "username: u\npassword: p\nproject_name: x\n", "VIM_MISSING_FIELD", 1, 1],
  ["malformed auth_url", "auth_url: not a url\nusername: u\npassword: p\nproject_name: x\n", "VIM_BAD_URL", 1, 11],
  ["auth_url not http(s)", "type: kubernetes\nbearer_token: t\nauth_url: ftp://k8s:6443\n", "VIM_BAD_URL", 3, 11],
  ["no credentials", "type: kubernetes\nauth_url: https://k:6443\nssl_ca_cert: None\n", "VIM_NO_CREDENTIALS", 1, 1],
  ["username without password", "type: kubernetes\nauth_url: https://k:6443\nusername: admin\n", "VIM_INCOMPLETE_CREDENTIALS", 3, 11],
  [
    "PEM that does not parse",
    "type: kubernetes\nauth_url: https://k:6443\nbearer_token: t\nssl_ca_cert: |\n  -----BEGIN CERTIFICATE-----\n  bm90IGEgY2VydA==\n  -----END CERTIFICATE-----\n",
    "VIM_BAD_PEM",
    4,
    14,
  ],
  ["text that holds no PEM", "type: kubernetes\nauth_url: https://k:6443\nbearer_token: t\nssl_ca_cert: yes-please\n", "VIM_BAD_PEM", 4, 14],
  ["unknown type", "type: vmware\nauth_url: https://k\n", "VIM_UNKNOWN_TYPE", 1, 7],
  ["unknown key", "type: kubernetes\nauth_url: https://k:6443\nbearer_tokn: t\n", "VIM_UNKNOWN_KEY", 3, 1],
  ["namespace that is not a DNS label", "type: kubernetes\nauth_url: https://k:6443\nbearer_token: t\nproject_name: Edge_1\n", "VIM_BAD_NAMESPACE", 4, 15],
  ["cert_verify that is not a boolean", "auth_url: http://k/identity\nusername: u\npassword: p\nproject_name: x\ncert_verify: maybe\n", "VIM_BAD_VALUE", 5, 14],
  ["password that YAML read as a number", "auth_url: http://k/identity\nusername: u\npassword: 1234\nproject_name: x\n", "VIM_BAD_TYPE", 3, 11],
  [
    "OIDC without client_id",
    "type: kubernetes\nauth_url: https://k:6443\noidc_token_url: https://idp/token\nusername: u\npassword: p\n",
    "VIM_INCOMPLETE_CREDENTIALS",
    3,
    1,
  ],
  [
    "OIDC without the user",
    "type: kubernetes\nauth_url: https://k:6443\nclient_id: c\noidc_token_url: https://idp/token\n",
    "VIM_INCOMPLETE_CREDENTIALS",
    4,
    1,
  ],
  [
    "an oidc_token_url that is no URL",
    "type: kubernetes\nauth_url: https://k:6443\noidc_token_url: idp\nclient_id: c\nusername: u\npassword: p\n",
    "VIM_BAD_URL",
    3,
    17,
  ],
  ["duplicate key", "auth_url: http://a/identity\nauth_url: http://b/identity\n", "YAML_DUPLICATE_KEY", 2, 1],
  ["YAML syntax error", "auth_url: 'http://a' x\nusername: u\n", "YAML_SYNTAX", 1, 22],
  ["tab indentation", "auth_url: http://a\n\tusername: u\n", "YAML_SYNTAX", 2, 1],
  ["a list instead of a mapping", "- auth_url: http://a\n", "VIM_NOT_MAPPING", 1, 1],
];

describe("bad vim-config.yaml", () => {
  it.each(BAD)("refuses %s with a located error", (_what, text, code, line, column) => {
    let error: unknown;
    try {
      parseVimConfig(text, "vim.yaml");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DiagnosticError);
    const [first] = (error as DiagnosticError).diagnostics;
    expect(first).toMatchObject({ severity: "error", code, file: "vim.yaml", line, column });
    expect((error as Error).message).toContain(`vim.yaml:${line}:${column}`);
  });

  it("errors name the field and the kind of value, never the value (it may be a password); an alias is not quoted either", () => {
    const problems = (text: string) => {
      try {
        parseVimConfig(text, "v.yaml");
      } catch (e) {
        return (e as DiagnosticError).diagnostics;
      }
      return [];
    };
    const num = problems("auth_url: http://k/identity\nusername: u\npassword: 98765432\nproject_name: x\ncert_verify: 12345678\n");
    expect(num.map((d) => d.message)).toEqual([
      "password must be a string, got a number (quote it in YAML)",
      "cert_verify must be True or False, got a number",
    ]);
    expect(JSON.stringify(num)).not.toMatch(/98765432|12345678/);
    const alias = problems("auth_url: http://k/identity\nusername: u\npassword: *S3cretPass\nproject_name: x\n");
    expect(alias.map((d) => d.code)).toEqual(["YAML_ALIAS_LIMIT"]);
    expect(alias[0].message).toBe("alias expansion refused: an alias (`*name`) names no anchor defined before it; quote a value that starts with `*`");
  });

  it("lists every problem in one error", () => {
    const text = "type: kubernetes\nauth_url: nope\nssl_ca_cert: garbage\nproject_name: UPPER\nfoo: 1\n";
    const err = (() => {
      try {
        parseVimConfig(text, "many.yaml");
      } catch (e) {
        return e as DiagnosticError;
      }
      throw new Error("expected an error");
    })();
    expect(err.diagnostics.map((d) => d.code).sort()).toEqual(["VIM_BAD_NAMESPACE", "VIM_BAD_PEM", "VIM_BAD_URL", "VIM_NO_CREDENTIALS", "VIM_UNKNOWN_KEY"]);
    expect(err.message).toMatch(/^invalid VIM config many.yaml \(5 problems\):/);
  });

  it("suggests the key the user probably meant", () => {
    expect(() => parseVimConfig("type: kubernetes\nauth_url: https://k:6443\nbearer_tokn: t\n", "v.yaml")).toThrow("did you mean 'bearer_token'?");
  });

  it("reads Tacker's OIDC keys: the user and password are the issuer's; a bearer token beside them is overridden, with a warning", () => {
    const text =
      "type: kubernetes\nauth_url: https://k:6443\nbearer_token: t\noidc_token_url: https://idp:4593/token\nclient_id: tacker\nclient_secret: cs\nusername: u\npassword: p\nssl_ca_cert: None\n";
    const { spec, bag } = parseVimConfig(text, "oidc.yaml");
    expect(spec).toMatchObject({
      type: "kubernetes",
      username: "u",
      password: "p",
      oidc: { tokenUrl: "https://idp:4593/token", clientId: "tacker", clientSecret: "cs" },
    });
    expect(bag.items.map((d) => [d.code, d.line])).toEqual([["VIM_OIDC_OVERRIDES_TOKEN", 3]]);
    const pub = parseVimConfig(
      "type: kubernetes\nauth_url: https://k:6443\noidc_token_url: http://idp/token\nclient_id: c\nusername: u\npassword: p\n",
      "o.yaml",
    );
    expect((pub.spec as { oidc?: object }).oidc).toEqual({ tokenUrl: "http://idp/token", clientId: "c" });
    expect(pub.bag.items.map((d) => d.code)).toEqual(["VIM_PLAINTEXT_CREDENTIALS"]);
  });

  it("names the file when it cannot be read", () => {
    expect(() => readVimConfigFile("/nonexistent/vim.yaml")).toThrow(/VIM_FILE_UNREADABLE.*ENOENT/);
  });
});
