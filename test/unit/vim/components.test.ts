import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { installMocks, isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";

const PKI = path.join(__dirname, "../../fixtures/pki");
const CA_A = readFileSync(path.join(PKI, "ca-a.crt"), "utf8");
const CA_B = readFileSync(path.join(PKI, "ca-b.crt"), "utf8");
const CLIENT_CRT = readFileSync(path.join(PKI, "client.crt"), "utf8");
const CLIENT_KEY = readFileSync(path.join(PKI, "client.key"), "utf8");
const b64 = (s: string) => Buffer.from(s).toString("base64");

let registered: Registered[];
// Components are imported after the mocks are installed, as Pulumi's testing guide requires.
let vim: typeof import("../../../components/vim");

beforeAll(async () => {
  registered = installMocks();
  vim = await import("../../../components/vim");
});
afterEach(async () => {
  // Registrations of the finished test may still be in flight; let them land before clearing.
  await settle();
  registered.length = 0;
  vi.restoreAllMocks();
});

function providerOf(component: string): Registered {
  const found = registered.filter((r) => r.type.startsWith("pulumi:providers:") && r.name === `${component}-provider`);
  expect(found).toHaveLength(1);
  return found[0];
}

describe("KubernetesVim", () => {
  it("bearer token with a CA bundle: a kubernetes provider on a secret, in-memory kubeconfig", async () => {
    const v = new vim.KubernetesVim("edge", {
      authUrl: "https://192.0.2.10:6443",
      bearerToken: pulumi.secret("tok-123"),
      sslCaCert: pulumi.secret(CA_A + CA_B),
      projectName: "nfv",
    });
    const kubeconfig = await valueOf(v.kubeconfig);
    await settle();

    expect(registered.map((r) => [r.type, r.name])).toEqual([
      ["nfv:vim:KubernetesVim", "edge"],
      ["pulumi:providers:kubernetes", "edge-provider"],
    ]);
    const provider = providerOf("edge");
    expect(isSecretValue(provider.inputs.kubeconfig)).toBe(true);
    expect(plain(provider.inputs.kubeconfig)).toBe(kubeconfig);
    expect(provider.inputs.namespace).toBe("nfv");
    expect(parse(kubeconfig)).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "edge", cluster: { server: "https://192.0.2.10:6443", "certificate-authority-data": b64(CA_A + CA_B) } }],
      users: [{ name: "edge", user: { token: "tok-123" } }],
      contexts: [{ name: "edge", context: { cluster: "edge", user: "edge", namespace: "nfv" } }],
      "current-context": "edge",
    });
    expect(await pulumi.isSecret(v.kubeconfig)).toBe(true);
    expect(await valueOf(v.endpoint)).toBe("https://192.0.2.10:6443");
    expect(await valueOf(v.namespace)).toBe("nfv");
  });

  it("makes the kubeconfig secret even when credentials arrive as plain strings", async () => {
    const v = new vim.KubernetesVim("plain", { authUrl: "https://k:6443", bearerToken: "tok", sslCaCert: CA_A });
    expect(await pulumi.isSecret(v.kubeconfig)).toBe(true);
    await settle();
    expect(isSecretValue(providerOf("plain").inputs.kubeconfig)).toBe(true);
    expect(providerOf("plain").inputs.namespace).toBe("default");
  });

  it("records the VIM as Tacker shows it, credentials masked and not secret", async () => {
    const v = new vim.KubernetesVim("edge", {
      authUrl: "https://192.0.2.10:6443",
      bearerToken: pulumi.secret("tok-123"),
      sslCaCert: pulumi.secret(CA_A),
      projectName: "nfv",
    });
    const record = await valueOf(v.vimRecord);
    expect(await pulumi.isSecret(v.vimRecord)).toBe(false);
    expect(record).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: "edge",
      type: "kubernetes",
      description: "",
      auth_url: "https://192.0.2.10:6443",
      auth_cred: { auth_url: "https://192.0.2.10:6443", username: "None", bearer_token: "***", ssl_ca_cert: "***" },
      vim_project: { name: "nfv" },
      placement_attr: { regions: ["nfv"] },
      project_id: null,
      is_default: false,
      status: "PENDING",
      extra: {},
      created_at: null,
      updated_at: null,
    });
    expect(JSON.stringify(record)).not.toContain("tok-123");
    expect(JSON.stringify(record)).not.toContain(CA_A.split("\n")[1]);
  });

  it("extra.helm_info (Tacker's format carries masternode_password) is masked in the record; use_helm kept", async () => {
    const helmInfo = "{'masternode_ip': ['192.0.2.5'], 'masternode_username': 'helm', 'masternode_password': 'HelmS3cret'}";
    const v = new vim.KubernetesVim("helm", {
      authUrl: "https://k:6443",
      bearerToken: pulumi.secret("t"),
      sslCaCert: CA_A,
      extra: { use_helm: true, helm_info: helmInfo },
    });
    const record = await valueOf(v.vimRecord);
    expect(record.extra).toEqual({ use_helm: true, helm_info: "***" });
    expect(JSON.stringify(record)).not.toContain("HelmS3cret");
  });

  it("basic auth: username and a secret password in the kubeconfig", async () => {
    const v = new vim.KubernetesVim("basic", { authUrl: "https://k:6443", username: "admin", password: pulumi.secret("pw-456"), sslCaCert: CA_A });
    const kc = parse(await valueOf(v.kubeconfig));
    expect(kc.users[0].user).toEqual({ username: "admin", password: "pw-456" });
    expect((await valueOf(v.vimRecord)).auth_cred).toEqual({ auth_url: "https://k:6443", username: "admin", password: "***", ssl_ca_cert: "***" });
  });

  it("OIDC: the exec plugin with the issuer's user and client in its environment (secret kubeconfig); Tacker's record masks the secrets", async () => {
    const v = vim.vimFromSpec("oidc", {
      type: "kubernetes",
      authUrl: "https://k:6443",
      username: "nfv-operator",
      password: "pw-oidc",
      sslCaCert: CA_A,
      projectName: "default",
      oidc: { tokenUrl: "https://idp:4593/token", clientId: "pulumi-nfv", clientSecret: "cs-789" },
    }) as InstanceType<typeof vim.KubernetesVim>;
    expect(await pulumi.isSecret(v.kubeconfig)).toBe(true);
    const user = parse(await valueOf(v.kubeconfig)).users[0].user;
    expect(Object.keys(user)).toEqual(["exec"]);
    expect(Object.fromEntries(user.exec.env.map((e: { name: string; value: string }) => [e.name, e.value]))).toEqual({
      NFV_OIDC_TOKEN_URL: "https://idp:4593/token",
      NFV_OIDC_CLIENT_ID: "pulumi-nfv",
      NFV_OIDC_CLIENT_SECRET: "cs-789",
      NFV_OIDC_USERNAME: "nfv-operator",
      NFV_OIDC_PASSWORD: "pw-oidc",
      NFV_OIDC_CA: CA_A,
    });
    const record = await valueOf(v.vimRecord);
    expect(record.auth_cred).toEqual({
      auth_url: "https://k:6443",
      username: "nfv-operator",
      password: "***",
      ssl_ca_cert: "***",
      oidc_token_url: "https://idp:4593/token",
      client_id: "pulumi-nfv",
      client_secret: "***",
    });
    expect(await pulumi.isSecret(v.vimRecord)).toBe(false);
    expect(() => new vim.KubernetesVim("half", { authUrl: "https://k:6443", oidcTokenUrl: "https://idp/token", username: "u", password: "p" })).toThrow(
      "KubernetesVim 'half': oidcTokenUrl needs clientId, username and password",
    );
  });

  it("ssl_ca_cert None: skips TLS verification and says so in a warning", async () => {
    const warn = vi.spyOn(pulumi.log, "warn");
    const v = new vim.KubernetesVim("insecure", { authUrl: "https://k:6443", bearerToken: pulumi.secret("t"), sslCaCert: "None" });
    const kc = parse(await valueOf(v.kubeconfig));
    expect(kc.clusters[0].cluster).toEqual({ server: "https://k:6443", "insecure-skip-tls-verify": true });
    expect(warn).toHaveBeenCalledWith("VIM 'insecure': ssl_ca_cert is None, so TLS to https://k:6443 is NOT verified", expect.anything());
    expect((await valueOf(v.vimRecord)).auth_cred.ssl_ca_cert).toBe("None");
  });

  it("does not warn when a CA is given", async () => {
    const warn = vi.spyOn(pulumi.log, "warn");
    const v = new vim.KubernetesVim("verified", { authUrl: "https://k:6443", bearerToken: "t", sslCaCert: CA_A });
    await valueOf(v.kubeconfig);
    expect(warn).not.toHaveBeenCalled();
  });

  it("client certificate authentication, key kept secret", async () => {
    const v = new vim.KubernetesVim("mtls", {
      authUrl: "https://k:6443",
      clientCertificate: CLIENT_CRT,
      clientKey: pulumi.secret(CLIENT_KEY),
      sslCaCert: CA_A,
    });
    const user = parse(await valueOf(v.kubeconfig)).users[0].user;
    expect(Buffer.from(user["client-certificate-data"], "base64").toString()).toBe(CLIENT_CRT);
    expect(Buffer.from(user["client-key-data"], "base64").toString()).toContain("PRIVATE KEY-----");
  });

  it("render mode: the provider writes manifests and gets no kubeconfig", async () => {
    new vim.KubernetesVim("render", { authUrl: "https://k:6443", bearerToken: "t", sslCaCert: CA_A, renderYamlToDirectory: "/tmp/out" });
    await settle();
    const inputs = providerOf("render").inputs;
    expect(inputs.renderYamlToDirectory).toBe("/tmp/out");
    expect(inputs.kubeconfig).toBeUndefined();
  });

  it("rejects a CA that does not parse before registering anything, naming the component and the field", async () => {
    const bad = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----";
    expect(() => new vim.KubernetesVim("broken", { authUrl: "https://k:6443", bearerToken: "t", sslCaCert: bad })).toThrow(
      /KubernetesVim 'broken': sslCaCert: certificate 1 does not parse/,
    );
    await settle();
    expect(registered).toEqual([]);
  });

  it("rejects a VIM without credentials", () => {
    expect(() => new vim.KubernetesVim("anon", { authUrl: "https://k:6443", sslCaCert: CA_A })).toThrow(
      "KubernetesVim 'anon': credentials: give bearerToken, or username and password",
    );
  });

  it("renders without credentials and without a TLS warning: no API server is asked", async () => {
    const warn = vi.spyOn(pulumi.log, "warn");
    const v = new vim.KubernetesVim("offline", { authUrl: "https://k:6443", renderYamlToDirectory: "/tmp/out" });
    await valueOf(v.kubeconfig);
    await settle();
    expect(providerOf("offline").inputs).toMatchObject({ renderYamlToDirectory: "/tmp/out" });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("OpenStackVim", () => {
  it("an openstack provider with the Tacker fields and a secret password", async () => {
    const v = new vim.OpenStackVim("core", {
      authUrl: "http://192.0.2.20/identity",
      username: "nfv_user",
      password: pulumi.secret("mySecretPW"),
      projectName: "nfv",
      projectDomainName: "Default",
      userDomainName: "Default",
      region: "RegionOne",
    });
    const record = await valueOf(v.vimRecord);
    await settle();
    expect(registered.map((r) => [r.type, r.name])).toEqual([
      ["nfv:vim:OpenStackVim", "core"],
      ["pulumi:providers:openstack", "core-provider"],
    ]);
    const inputs = providerOf("core").inputs;
    expect(isSecretValue(inputs.password)).toBe(true);
    expect(plain(inputs.password)).toBe("mySecretPW");
    expect(inputs).toMatchObject({
      authUrl: "http://192.0.2.20/identity",
      userName: "nfv_user",
      tenantName: "nfv",
      projectDomainName: "Default",
      userDomainName: "Default",
      region: "RegionOne",
    });
    // The SDK sends provider configuration as JSON text.
    expect(inputs.insecure).toBe("false");
    expect(record.auth_cred).toEqual({
      auth_url: "http://192.0.2.20/identity",
      username: "nfv_user",
      password: "***",
      user_domain_name: "Default",
      project_name: "nfv",
      project_domain_name: "Default",
      cert_verify: "True",
    });
    expect(record.placement_attr).toEqual({ regions: ["RegionOne"] });
    expect(JSON.stringify(record)).not.toContain("mySecretPW");
  });

  it("keeps the password secret when it arrives as a plain string", async () => {
    new vim.OpenStackVim("plainpw", { authUrl: "http://k/identity", username: "u", password: "pw", projectName: "p" });
    await settle();
    expect(isSecretValue(providerOf("plainpw").inputs.password)).toBe(true);
  });

  it("cert_verify False: insecure provider and a warning", async () => {
    const warn = vi.spyOn(pulumi.log, "warn");
    const v = new vim.OpenStackVim("lab", { authUrl: "https://k/identity", username: "u", password: "pw", projectName: "p", certVerify: false });
    await valueOf(v.vimRecord);
    await settle();
    expect(providerOf("lab").inputs.insecure).toBe("true");
    expect(warn).toHaveBeenCalledWith("VIM 'lab': cert_verify is False, so TLS to Keystone is NOT verified", expect.anything());
  });

  it("plain HTTP: no TLS warning; a warning about the unencrypted password unless Keystone is on loopback", async () => {
    const warn = vi.spyOn(pulumi.log, "warn");
    warn.mockClear();
    const remote = new vim.OpenStackVim("remote", { authUrl: "http://192.0.2.5/identity", username: "u", password: "pw", projectName: "p", certVerify: false });
    const local = new vim.OpenStackVim("loop", { authUrl: "http://127.0.0.1:5000/v3", username: "u", password: "pw", projectName: "p", certVerify: false });
    await valueOf(remote.vimRecord);
    await valueOf(local.vimRecord);
    await settle();
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      "VIM 'remote': Keystone at http://192.0.2.5 is plain HTTP: the password crosses the network unencrypted",
    ]);
  });

  it("passes a Keystone CA as secret content, never as a file path", async () => {
    new vim.OpenStackVim("ca", { authUrl: "https://k/identity", username: "u", password: "pw", projectName: "p", caCert: CA_A });
    await settle();
    await settle();
    const cacert = providerOf("ca").inputs.cacertFile;
    expect(isSecretValue(cacert)).toBe(true);
    expect(plain(cacert)).toBe(CA_A);
  });
});
