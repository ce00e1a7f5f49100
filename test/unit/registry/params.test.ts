/** private_registry_installation_param as Tacker's guide writes it: pure checks. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { readRegistryInstallation, registryStdin } from "../../../components/registry/params";
import { request } from "../vnf/vnf-mocks";

describe("readRegistryInstallation", () => {
  it("accepts the seed's param file as it is", () => {
    const raw = request("private_registry_param_file.json").additionalParams!.private_registry_installation_param;
    const { value, bag } = readRegistryInstallation(raw, { cpIds: ["CP1"] });
    expect(bag.items).toEqual([]);
    expect(value).toEqual({
      sshCpName: "CP1",
      sshUsername: "ubuntu",
      sshPassword: "ubuntu",
      portNo: 5000,
      proxy: { httpProxy: "http://user1:password1@host1:3128", httpsProxy: "https://user2:password2@host2:3129", noProxy: ["192.168.246.0/24", "10.0.0.1"] },
    });
  });

  it("port_no as a string or a number; unknown keys warn", () => {
    expect(readRegistryInstallation({ ssh_cp_name: "CP1", ssh_username: "u", port_no: "5443" }, { cpIds: ["CP1"] }).value?.portNo).toBe(5443);
    expect(readRegistryInstallation({ ssh_cp_name: "CP1", ssh_username: "u", port_no: 65535 }, { cpIds: ["CP1"] }).value?.portNo).toBe(65535);
    const { bag } = readRegistryInstallation({ ssh_cp_name: "CP1", ssh_username: "u", colour: "blue" }, { cpIds: ["CP1"] });
    expect(bag.items.map((d) => [d.severity, d.code])).toEqual([["warning", "REGISTRY_PARAM_UNKNOWN"]]);
  });

  it("an existing host needs no ssh_cp_name and takes the user from the host", () => {
    expect(readRegistryInstallation(undefined, { sshUsername: "admin" }).value).toEqual({ sshUsername: "admin", portNo: 5000, proxy: {} });
  });

  it("all problems at once", () => {
    const { value, bag } = readRegistryInstallation({ port_no: 0, proxy: { http_proxy: "a\nb" } }, { cpIds: ["CP1"] });
    expect(value).toBeUndefined();
    expect(bag.errors().map((d) => d.code)).toEqual(["REGISTRY_SSH_CP_NAME", "REGISTRY_SSH_USERNAME", "REGISTRY_PORT_NO", "REGISTRY_PROXY_URL"]);
  });

  it("proxy values are typed: the issue's payloads, Tacker's `host1:port1` placeholder and a non-http scheme are refused, naming the field, never the value", () => {
    const { value, bag } = readRegistryInstallation(
      {
        ssh_cp_name: "CP1",
        ssh_username: "u",
        proxy: {
          http_proxy: 'http://p:3128"; APT::Update::Pre-Invoke {"id > F";}; Dummy "',
          https_proxy: "https://user2:S3cret@host2:port2",
          no_proxy: '10.0.0.1" "LD_PRELOAD=/x.so',
        },
      },
      { cpIds: ["CP1"] },
    );
    expect(value).toBeUndefined();
    expect(bag.errors().map((d) => [d.code, d.path])).toEqual([
      ["REGISTRY_PROXY_URL", "additionalParams.private_registry_installation_param.proxy.http_proxy"],
      ["REGISTRY_PROXY_URL", "additionalParams.private_registry_installation_param.proxy.https_proxy"],
      ["REGISTRY_NO_PROXY", "additionalParams.private_registry_installation_param.proxy.no_proxy"],
    ]);
    expect(JSON.stringify(bag.items)).not.toMatch(/Pre-Invoke|S3cret|LD_PRELOAD/);
    expect(readRegistryInstallation({ ssh_username: "u", proxy: { http_proxy: "socks5://p:1080" } }, {}).bag.errors()[0].message).toBe(
      "proxy.http_proxy must be an http or https URL, not socks5",
    );
  });
});

describe("image_path", () => {
  it("a regular file of the package directory; a symbolic link, a directory or a path outside is refused at the field", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "reg-pkg-"));
    mkdirSync(path.join(dir, "Files/dir.tar"), { recursive: true });
    writeFileSync(path.join(dir, "Files/image.tar"), "tar");
    writeFileSync(path.join(dir, "operator.tar"), "not the package's");
    symlinkSync(path.join(dir, "operator.tar"), path.join(dir, "Files/linked.tar"));
    const at = (image_path: string) => readRegistryInstallation({ ssh_username: "u", image_path }, { packageDir: dir });
    expect(at("Files/./image.tar").value?.imageFile).toBe(path.join(dir, "Files/image.tar"));
    expect(
      at("Files/linked.tar")
        .bag.errors()
        .map((d) => [d.code, d.path, d.message]),
    ).toEqual([
      [
        "REGISTRY_IMAGE_PATH",
        "additionalParams.private_registry_installation_param.image_path",
        "image_path Files/linked.tar is a symbolic link or not a regular file; a package file must be a regular file inside the package",
      ],
    ]);
    expect(
      at("Files/dir.tar")
        .bag.errors()
        .map((d) => d.message),
    ).toEqual([`image_path Files/dir.tar is not a file of the package ${dir}`]);
    expect(
      at("../x.tar")
        .bag.errors()
        .map((d) => d.message),
    ).toEqual(["image_path ../x.tar must be a path inside the package"]);
  });
});

describe("registryStdin", () => {
  it("key=value lines, empty values left out, newlines refused", () => {
    expect(registryStdin({ MODE: "container", PORT: "5000", HTTP_PROXY: undefined, NO_PROXY: "" })).toBe("MODE=container\nPORT=5000\n");
    expect(() => registryStdin({ AUTH_PASSWORD: "a\nb" })).toThrow(/AUTH_PASSWORD contains a newline/);
  });
});
