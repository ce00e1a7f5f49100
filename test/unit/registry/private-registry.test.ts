/**
 * PrivateRegistry against Pulumi mocks: the registry package with the seed's param file as it is,
 * and an existing host. Proves the resource graph, hook order and where secrets go; not that the
 * script works on a VM (bats and the lab do that).
 */
import * as path from "node:path";
import * as openstack from "@pulumi/openstack";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { isSecretValue, plain, settle, valueOf, type Registered } from "../helpers/pulumi-mocks";
import type { DiagnosticError } from "../../../translators/diagnostics";
import type { VnfModel } from "../../../translators/tosca/model";
import { graph, installVnfMocks, model, PACKAGES, request } from "../vnf/vnf-mocks";

const b64 = (s: string) => Buffer.from(s).toString("base64");

let registered: Registered[];
let reg: typeof import("../../../components/registry");
let pkg: VnfModel;
let provider: openstack.Provider;
const PKG_DIR = path.join(PACKAGES, "private_registry_vnf_package");
const V = "reg-vnf-PrivateRegistryVDU-0";

beforeAll(async () => {
  ({ registered } = installVnfMocks());
  reg = await import("../../../components/registry");
  pkg = await model("private_registry_vnf_package");
  provider = new openstack.Provider("vim-provider", { authUrl: "http://192.0.2.10/identity" });
  await settle();
});
afterEach(async () => {
  await settle();
  registered.length = 0;
});

const named = (name: string) => {
  const r = registered.filter((x) => x.name === name);
  expect(r, name).toHaveLength(1);
  return r[0];
};
const stdinOf = (name: string) => {
  const s = named(name).inputs.stdin;
  expect(isSecretValue(s), `${name} stdin is secret`).toBe(true);
  return plain(s) as string;
};

describe("PrivateRegistry on the registry package (seed param file as it is)", () => {
  it("exact resource graph: one server on a pre-created port, a persistent volume, install hook after SSH and copy", async () => {
    const r = new reg.PrivateRegistry("reg", {
      vnf: { flavours: pkg.flavours, request: request("private_registry_param_file.json"), provider, packageDir: PKG_DIR },
    });
    const endpoint = await valueOf(r.endpoint);
    await settle();
    expect(
      graph(registered)
        .filter((g) => !g.startsWith("pulumi:providers"))
        .sort(),
    ).toEqual([
      "command:remote:Command reg-vnf-PrivateRegistryVDU-0-instantiate_end",
      "command:remote:Command reg-vnf-PrivateRegistryVDU-0-ssh-ready",
      "command:remote:CopyToRemote reg-vnf-PrivateRegistryVDU-0-copy-install-registry.sh",
      "nfv:registry:PrivateRegistry reg",
      "nfv:vnf:VmVnf reg-vnf",
      "openstack:blockstorage/volume:Volume reg-vnf-PrivateRegistryVDU-0-RegistryStorage",
      "openstack:compute/flavor:Flavor reg-vnf-PrivateRegistryVDU-flavor",
      "openstack:compute/instance:Instance reg-vnf-PrivateRegistryVDU-0",
      "openstack:compute/volumeAttach:VolumeAttach reg-vnf-PrivateRegistryVDU-0-RegistryStorage-attach",
      "openstack:networking/port:Port reg-vnf-PrivateRegistryVDU-0-CP1",
    ]);
    expect(named(`${V}-CP1`).inputs).toEqual({
      name: `${V}-CP1`,
      adminStateUp: true,
      networkId: "f0c82461-36b5-4d86-8322-b0bc19cda65f",
      tags: ["nfv-vnfc-id=PrivateRegistryVDU-0", "nfv-cp-id=CP1"],
    });
    expect(named("reg-vnf-PrivateRegistryVDU-flavor").inputs).toEqual({ name: "reg-vnf-PrivateRegistryVDU", ram: 4096, vcpus: 2, disk: 45, isPublic: false });
    expect(named(`${V}-RegistryStorage`).inputs).toEqual({ name: `${V}-RegistryStorage`, size: 20 });
    expect(named(`${V}-RegistryStorage-attach`).inputs).toEqual({ instanceId: `${V}-id`, volumeId: `${V}-RegistryStorage-id` });
    expect(endpoint).toMatch(/^10\.0\.0\.\d+:5000$/);
    const info = await valueOf(r.connectionInfo);
    expect(info).toEqual({ connection_type: "0", server: endpoint });
  });

  it("hooks: the install script over SSH with the seed's password; every parameter on stdin, none on a command line", async () => {
    new reg.PrivateRegistry("reg", { vnf: { flavours: pkg.flavours, request: request("private_registry_param_file.json"), provider, packageDir: PKG_DIR } });
    await settle();
    const install = named(`${V}-instantiate_end`);
    expect(install.inputs.create).toBe("sudo -n /bin/bash /var/tmp/nfv/install-registry.sh");
    expect(stdinOf(`${V}-instantiate_end`)).toBe(
      [
        "MODE=container",
        "PORT=5000",
        "REGISTRY_IMAGE=registry:2.8.3",
        `APT_PROXY_CONF_B64=${b64('Acquire::http::Proxy "http://user1:password1@host1:3128";\nAcquire::https::Proxy "https://user2:password2@host2:3129";\n')}`,
        `PROXY_DROPIN_B64=${b64(
          [
            "[Service]",
            'Environment="HTTP_PROXY=http://user1:password1@host1:3128" "http_proxy=http://user1:password1@host1:3128"',
            'Environment="HTTPS_PROXY=https://user2:password2@host2:3129" "https_proxy=https://user2:password2@host2:3129"',
            'Environment="NO_PROXY=192.168.246.0/24,10.0.0.1" "no_proxy=192.168.246.0/24,10.0.0.1"',
            "",
          ].join("\n"),
        )}`,
        `STORAGE_VOLUME_ID=${V}-RegistryStorage-id`,
        "",
      ].join("\n"),
    );
    const conn = install.inputs.connection as Record<string, unknown>;
    const c = (isSecretValue(conn) ? conn.value : conn) as Record<string, unknown>;
    expect(plain(c.password)).toBe("ubuntu");
    expect(c).toMatchObject({ user: "ubuntu", port: 22, dialErrorLimit: 60, perDialTimeout: 15 });
    expect(c.host).toMatch(/^10\.0\.0\./);
    // Nothing secret in any command string or anywhere outside stdin/connection.
    for (const r of registered.filter((x) => x.type.startsWith("command:"))) {
      const visible = JSON.stringify({ ...r.inputs, stdin: undefined, connection: undefined });
      expect(visible, r.name).not.toMatch(/password1|password2|ubuntu"/);
    }
    expect(named(`${V}-copy-install-registry.sh`).inputs.remotePath).toBe("/var/tmp/nfv/install-registry.sh");
    expect(named(`${V}-ssh-ready`).inputs.triggers).toEqual([`${V}-id`]);
  });

  it("TLS, auth, native mode, key auth: connection info for the cluster carries credentials and the certificate as the CA, secret", async () => {
    const r = new reg.PrivateRegistry("reg", {
      vnf: {
        flavours: pkg.flavours,
        request: request("private_registry_param_file.json"),
        provider,
        packageDir: PKG_DIR,
        sshPrivateKey: "KEY",
        storageGib: 50,
      },
      installationParam: { ssh_cp_name: "CP1", ssh_username: "debian", port_no: "5443" },
      mode: "native",
      tls: { certificate: "CERT", privateKey: pulumi.secret("TLSKEY") },
      auth: { username: "nfv", password: pulumi.secret("s3cret") },
    });
    const info = r.connectionInfo;
    await settle();
    expect(stdinOf(`${V}-instantiate_end`)).toBe(
      [
        "MODE=native",
        "PORT=5443",
        `TLS_CERT_B64=${Buffer.from("CERT").toString("base64")}`,
        `TLS_KEY_B64=${Buffer.from("TLSKEY").toString("base64")}`,
        "AUTH_USER=nfv",
        "AUTH_PASSWORD=s3cret",
        `STORAGE_VOLUME_ID=${V}-RegistryStorage-id`,
        "",
      ].join("\n"),
    );
    expect(named(`${V}-RegistryStorage`).inputs.size).toBe(50);
    const v = await valueOf(info);
    expect(v).toEqual({ connection_type: "1", server: expect.stringMatching(/:5443$/), username: "nfv", password: "s3cret", ca_certificate: "CERT" });
    expect(await pulumi.isSecret(info)).toBe(true);
  });

  it("heal generation 1: heal_start-less package gets heal_end (re-run install), triggered by the generation", async () => {
    const r = new reg.PrivateRegistry("reg", {
      vnf: {
        flavours: pkg.flavours,
        request: request("private_registry_param_file.json"),
        provider,
        packageDir: PKG_DIR,
        healGenerations: { "PrivateRegistryVDU-0": 1 },
      },
    });
    await settle();
    expect(named(`${V}-heal_end`).inputs).toMatchObject({ create: "sudo -n /bin/bash /var/tmp/nfv/install-registry.sh", triggers: [1] });
    expect(r.vnf!.hookOrder).toEqual(["PrivateRegistryVDU-0:instantiate_end", "PrivateRegistryVDU-0:heal_end"]);
  });

  it("image_path: the tarball is copied and loaded instead of pulled", async () => {
    const dir = path.resolve(__dirname, "../../fixtures/vnf/pkg-with-image");
    new reg.PrivateRegistry("reg", {
      vnf: { flavours: pkg.flavours, request: request("private_registry_param_file.json"), provider, packageDir: dir },
      installationParam: { ssh_cp_name: "CP1", ssh_username: "ubuntu", ssh_password: "pw", image_path: "Files/images/cirros-0.5.2-x86_64-disk.img" },
    });
    await settle();
    expect(named(`${V}-copy-cirros-0.5.2-x86_64-disk.img`).inputs.remotePath).toBe("/var/tmp/nfv/registry-image.tar");
    expect(stdinOf(`${V}-instantiate_end`)).toContain("IMAGE_TARBALL=/var/tmp/nfv/registry-image.tar\n");
  });
});

describe("PrivateRegistry heal (Tacker loses the IP and the images; we keep both)", () => {
  it("whole heal replaces only the server; the port (IP) and the registry volume are kept; heal_end re-runs the install after copy", async () => {
    const ops = await import("../../../ops/vm");
    const r = new reg.PrivateRegistry("reg", {
      vnf: { flavours: pkg.flavours, request: request("private_registry_param_file.json"), provider, packageDir: PKG_DIR },
    });
    const vnfcs = await valueOf(r.vnf!.vnfcs);
    const plan = ops.planHeal({ vnfcs, hookOperations: r.vnf!.plan.lcmOperations });
    // The parent-type chain of a URN is the engine's business (mocks shorten it): take it from the server.
    const serverUrn = vnfcs["PrivateRegistryVDU-0"].serverUrn;
    const U = serverUrn.slice(0, serverUrn.indexOf("openstack:"));
    expect(plan.replace).toEqual([`${U}openstack:compute/instance:Instance::${V}`]);
    expect(plan.keep).toEqual([`${U}openstack:networking/port:Port::${V}-CP1`, `${U}openstack:blockstorage/volume:Volume::${V}-RegistryStorage`]);
    expect(plan.hooks).toEqual([{ vnfcId: "PrivateRegistryVDU-0", operation: "heal_end" }]);
    await settle();
    registered.length = 0;
    const deps = new Map<string, string[]>();
    new reg.PrivateRegistry(
      "reg",
      {
        vnf: {
          flavours: pkg.flavours,
          request: request("private_registry_param_file.json"),
          provider,
          packageDir: PKG_DIR,
          healGenerations: plan.healGenerations,
        },
      },
      {
        transformations: [
          (a) => {
            deps.set(
              a.name,
              [a.opts.dependsOn ?? []].flat().map((x) => (x as unknown as { __name: string }).__name),
            );
            return undefined;
          },
        ],
      },
    );
    await settle();
    expect(deps.get(`${V}-ssh-ready`)).toEqual([V, `${V}-RegistryStorage-attach`]);
    expect(deps.get(`${V}-copy-install-registry.sh`)).toEqual([`${V}-ssh-ready`]);
    expect(deps.get(`${V}-instantiate_end`)).toEqual([`${V}-copy-install-registry.sh`]);
    expect(deps.get(`${V}-heal_end`)).toEqual([`${V}-copy-install-registry.sh`]);
    expect(stdinOf(`${V}-heal_end`)).toBe(stdinOf(`${V}-instantiate_end`));
  });
});

describe("PrivateRegistry on an existing host", () => {
  it("no OpenStack resource: SSH wait, copy, install; endpoint host:port", async () => {
    const r = new reg.PrivateRegistry("ext", {
      host: { host: "198.51.100.7", user: "admin", privateKey: "KEY", hostKey: "ssh-ed25519 AAAA" },
      installationParam: { port_no: 5001 },
    });
    const endpoint = await valueOf(r.endpoint);
    await settle();
    expect(graph(registered).sort()).toEqual([
      "command:remote:Command ext-host-instantiate_end",
      "command:remote:Command ext-host-ssh-ready",
      "command:remote:Command ext-host-terminate_end",
      "command:remote:CopyToRemote ext-host-copy-install-registry.sh",
      "nfv:registry:PrivateRegistry ext",
    ]);
    expect(endpoint).toBe("198.51.100.7:5001");
    expect(stdinOf("ext-host-instantiate_end")).toBe("MODE=container\nPORT=5001\nREGISTRY_IMAGE=registry:2.8.3\n");
    const conn = named("ext-host-instantiate_end").inputs.connection as Record<string, unknown>;
    const c = (isSecretValue(conn) ? conn.value : conn) as Record<string, unknown>;
    expect(c).toMatchObject({ host: "198.51.100.7", user: "admin", hostKey: "ssh-ed25519 AAAA" });
    expect(plain(c.privateKey)).toBe("KEY");
    // Destroy stops the registry on the host, which stays.
    expect(named("ext-host-terminate_end").inputs).toMatchObject({ delete: "sudo -n /bin/bash /var/tmp/nfv/install-registry.sh remove" });
    expect(named("ext-host-terminate_end").inputs.create).toBeUndefined();
    expect(stdinOf("ext-host-terminate_end")).toBe(stdinOf("ext-host-instantiate_end"));
  });

  it("heal: the host stays; from generation 1 the installation runs again as heal_end, with the same stdin", async () => {
    const heal = (healGeneration: number) =>
      new reg.PrivateRegistry(`h${healGeneration}`, {
        host: { host: "198.51.100.7", user: "admin", privateKey: "KEY", healGeneration },
        installationParam: { port_no: 5001 },
        mode: "native",
      });
    heal(0);
    await settle();
    expect(registered.filter((r) => r.name === "h0-host-heal_end")).toEqual([]);
    heal(2);
    await settle();
    expect(named("h2-host-heal_end").inputs).toMatchObject({ create: "sudo -n /bin/bash /var/tmp/nfv/install-registry.sh", triggers: [2] });
    expect(stdinOf("h2-host-heal_end")).toBe(stdinOf("h2-host-instantiate_end"));
    expect(graph(registered).filter((g) => g.startsWith("openstack:"))).toEqual([]);
  });
});

describe("PrivateRegistry package versions (one `apt-get install name=version` argument each)", () => {
  const HOST = { host: "198.51.100.7", user: "admin", privateKey: "KEY", hostKey: "ssh-ed25519 AAAA" };
  const refusal = (f: () => unknown): DiagnosticError => {
    try {
      f();
    } catch (e) {
      return e as DiagnosticError;
    }
    throw new Error("expected the registry arguments to be refused");
  };

  for (const field of ["dockerPackageVersion", "registryPackageVersion"] as const) {
    for (const bad of ["-oAPT::X=1", "1 -o x", "--option=DPkg::Pre-Invoke::=id", "1.0\n-o x", "", "v2.8"]) {
      it(`${field} ${JSON.stringify(bad)}, which apt could read as an option or is no version, is refused naming the field, not the value; nothing registered`, async () => {
        const err = refusal(() => new reg.PrivateRegistry("pv", { host: HOST, installationParam: { port_no: 5001 }, mode: "native", [field]: bad }));
        expect(err.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
          ["REGISTRY_PACKAGE_VERSION", field, `${field} is not a Debian package version`],
        ]);
        if (bad !== "") expect(err.message).not.toContain(bad);
        expect(err.message).not.toMatch(/-o|APT::|Pre-Invoke|v2\.8/);
        await settle();
        expect(registered).toEqual([]);
      });
    }
  }

  it("in vnf form too: refused before the VmVnf or any OpenStack resource is registered", async () => {
    const err = refusal(
      () =>
        new reg.PrivateRegistry("pvv", {
          vnf: { flavours: pkg.flavours, request: request("private_registry_param_file.json"), provider, packageDir: PKG_DIR },
          mode: "native",
          registryPackageVersion: "-oAPT::Update::Pre-Invoke::=id",
        }),
    );
    expect(err.diagnostics.map((d) => [d.code, d.path])).toEqual([["REGISTRY_PACKAGE_VERSION", "registryPackageVersion"]]);
    expect(err.message).not.toMatch(/Pre-Invoke/);
    await settle();
    expect(registered).toEqual([]);
  });

  it("Debian versions (epoch, revision, ~ and +) pass and reach the script on stdin as they are", async () => {
    new reg.PrivateRegistry("pvok", {
      host: HOST,
      installationParam: { port_no: 5001 },
      mode: "native",
      dockerPackageVersion: "5:24.0.7-1~debian.12~bookworm",
      registryPackageVersion: "2.8.2+ds1-1+b4",
    });
    await settle();
    expect(stdinOf("pvok-host-instantiate_end")).toContain("DOCKER_PACKAGE_VERSION=5:24.0.7-1~debian.12~bookworm\nREGISTRY_PACKAGE_VERSION=2.8.2+ds1-1+b4\n");
  });
});
