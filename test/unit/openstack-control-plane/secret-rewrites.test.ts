/**
 * secret-rewrites.ts on openstack-helm's own scripts (`../shared/upstream-src`): the password each
 * put on a command line is taken from the environment instead, the rest of the script unchanged;
 * RabbitMQ's Erlang cookie read from its Secret, not a plain env value; a script or workload that
 * no longer has what a rewrite expects stops the `up` by name.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envFromSecrets, keepSecretsOut, rewriteScript } from "../../../components/openstack-control-plane/secret-rewrites";
import { SCRIPTS_DIR } from "../../../components/openstack-control-plane/cinder";
import { unpackOpenstackHelm } from "../../fixtures/openstack-helm";

let osh: ReturnType<typeof unpackOpenstackHelm>;
beforeAll(() => {
  osh = unpackOpenstackHelm();
});
afterAll(() => osh?.dispose());

/** A script as upstream ships it (the lines rewritten have no template expressions). */
const upstream = (file: string) => readFileSync(path.join(osh.charts, file), "utf8");
/** What the lines a password was on, after the rewrite, may not contain. */
// (ks-user's `echo "... --password=xxxxxxx"` is no password.)
const ON_COMMAND_LINE = /--(bootstrap-)?password[= ]["$]|\bpassword=["$]/;

describe("rewriteScript", () => {
  it("Keystone's bootstrap: the admin password exported under `set +x`, no longer an argument", () => {
    const before = upstream("keystone/templates/bin/_db-sync.sh.tpl");
    expect(before).toContain("--bootstrap-password ${OS_PASSWORD}");
    const after = rewriteScript("keystone-bin", "db-sync.sh", before);
    expect(after).not.toMatch(ON_COMMAND_LINE);
    expect(after).toContain(
      'set +x\nexport OS_BOOTSTRAP_PASSWORD="${OS_PASSWORD}"\nset -x\nkeystone-manage --config-file=/etc/keystone/keystone.conf bootstrap \\\n',
    );
    // Every other argument of the bootstrap kept.
    for (const arg of ["--bootstrap-username ${OS_USERNAME}", "--bootstrap-region-id ${OS_REGION_NAME}", "--bootstrap-public-url"])
      expect(after).toContain(arg);
    expect(after.split("\n").length).toBe(before.split("\n").length + 2);
    // Another chart's db-sync.sh has no bootstrap: left as it is.
    const glance = upstream("glance/templates/bin/_db-sync.sh.tpl");
    expect(rewriteScript("glance-bin", "db-sync.sh", glance)).toBe(glance);
  });

  it("helm-toolkit's ks-user: the service user's password set through openstacksdk from the environment", () => {
    const before = upstream("helm-toolkit/templates/scripts/_ks-user.sh.tpl");
    const after = rewriteScript("glance-bin", "ks-user.sh", before);
    expect(after).not.toMatch(ON_COMMAND_LINE);
    expect(after).toContain(`update_user(sys.argv[1], password=os.environ["SERVICE_OS_PASSWORD"])' "\${USER_ID}"`);
    expect(after.split("\n").length).toBe(before.split("\n").length);
  });

  it("Nova's db-sync: each cell's database and transport URLs from a config file of its own written by printf, no longer arguments", () => {
    const before = upstream("nova/templates/bin/_db-sync.sh.tpl");
    expect(before).toContain('--database_connection="${DB_CONNECTION}"');
    const after = rewriteScript("nova-bin", "db-sync.sh", before);
    expect(after).not.toMatch(/--database_connection|--transport-url="\$\{TRANSPORT_URL\}"/);
    expect(after).toContain(`(umask 077; printf '[database]\\nconnection = %s\\n' "\${DB_CONNECTION_CELL0}" >/tmp/cell0.conf)`);
    expect(after).toContain(
      `(umask 077; printf '[DEFAULT]\\ntransport_url = %s\\n[database]\\nconnection = %s\\n' "\${TRANSPORT_URL}" "\${DB_CONNECTION}" >/tmp/cell1.conf)`,
    );
    for (const cell of ["cell0", "cell1"])
      expect(after).toContain(`nova-manage --config-file /etc/nova/nova.conf --config-file /tmp/${cell}.conf cell_v2 update_cell`);
    // Written while the script traces nothing: between its `set +x` and the `set -x` after it.
    const quietFrom = after.indexOf("set +x");
    const quietTo = after.indexOf("set -x", quietFrom);
    for (const file of ["/tmp/cell0.conf)", "/tmp/cell1.conf)"]) {
      expect(after.indexOf(file)).toBeGreaterThan(quietFrom);
      expect(after.indexOf(file)).toBeLessThan(quietTo);
    }
    // One line fewer: cell1's two URL arguments give way to its config file.
    expect(after.split("\n").length).toBe(before.split("\n").length - 1);
  });

  it("MariaDB's start.py: mysql_upgrade reads the password from MYSQL_PWD", () => {
    const before = upstream("mariadb/templates/bin/_start.py.tpl");
    const after = rewriteScript("mariadb-bin", "start.py", before);
    expect(after).not.toContain('"--password={0}"');
    expect(after).toContain(
      "upgrade_cmd=['mysql_upgrade', '--skip-write-binlog',\n                     \"--user={0}\".format(mysql_dbadmin_username)]\n        os.environ['MYSQL_PWD'] = mysql_dbadmin_password\n",
    );
  });

  it("helm-toolkit's rabbit-init: replaced by rabbit-user.py, which reads the same environment", () => {
    const before = upstream("helm-toolkit/templates/scripts/_rabbit-init.sh.tpl");
    expect(before).toMatch(/--password="\$\{RABBITMQ_ADMIN_PASSWORD\}"/);
    const after = rewriteScript("nova-bin", "rabbit-init.sh", before);
    expect(after).toBe(readFileSync(path.join(SCRIPTS_DIR, "rabbit-user.py"), "utf8"));
    expect(after.startsWith("#!/usr/bin/env python3\n")).toBe(true);
    for (const v of ["RABBITMQ_ADMIN_CONNECTION", "RABBITMQ_USER_CONNECTION", "RABBITMQ_AUXILIARY_CONFIGURATION"]) {
      expect(before).toContain(v);
      expect(after).toContain(`env["${v}"]`);
    }
  });

  it("a script without the text a rewrite expects (or with it twice) is refused, naming the ConfigMap and the script; others pass unchanged", () => {
    expect(() => rewriteScript("keystone-bin", "db-sync.sh", "keystone-manage db_sync\n")).toThrow(
      /ConfigMap keystone-bin, script db-sync.sh: the chart's script no longer has, exactly once, "--bootstrap-password \$\{OS_PASSWORD\} \\\\"/,
    );
    const twice = 'openstack user set --password="${SERVICE_OS_PASSWORD}" "${USER_ID}"\n'.repeat(2);
    expect(() => rewriteScript("nova-bin", "ks-user.sh", twice)).toThrow(/ConfigMap nova-bin, script ks-user.sh/);
    expect(() => rewriteScript("nova-bin", "rabbit-init.sh", "#!/bin/bash\n")).toThrow(/ConfigMap nova-bin, script rabbit-init.sh/);
    expect(rewriteScript("nova-bin", "nova-api.sh", "exec nova-api\n")).toBe("exec nova-api\n");
  });
});

describe("keepSecretsOut on ConfigMaps", () => {
  const transform = (type: string, props: Record<string, unknown>) =>
    keepSecretsOut({ type, name: "x", props, opts: {}, custom: true } as pulumi.ResourceTransformArgs) as { props: Record<string, unknown> } | undefined;

  it("rewrites the scripts of the charts' -bin ConfigMaps only", () => {
    const ksUser = upstream("helm-toolkit/templates/scripts/_ks-user.sh.tpl");
    const out = transform("kubernetes:core/v1:ConfigMap", {
      metadata: { name: "placement-bin" },
      data: { "ks-user.sh": ksUser, "placement-api.sh": "exec x\n" },
    });
    const data = out?.props.data as Record<string, string>;
    expect(data["ks-user.sh"]).not.toMatch(ON_COMMAND_LINE);
    expect(data["placement-api.sh"]).toBe("exec x\n");
    expect(out?.props.metadata).toEqual({ name: "placement-bin" });
    expect(transform("kubernetes:core/v1:ConfigMap", { metadata: { name: "placement-etc" }, data: { "ks-user.sh": ksUser } })).toBeUndefined();
    expect(transform("kubernetes:core/v1:Secret", { metadata: { name: "placement-bin" }, data: { "ks-user.sh": ksUser } })).toBeUndefined();
  });
});

describe("envFromSecrets", () => {
  const statefulSet = (env: { name: string; value?: string }[]) => ({
    template: {
      metadata: { labels: { a: "b" } },
      spec: {
        containers: [
          { name: "init", env: [{ name: "X", value: "1" }] },
          { name: "rabbitmq", env },
        ],
      },
    },
  });

  it("RabbitMQ's Erlang cookie from the chart's Secret, every other variable as it was", () => {
    const out = keepSecretsOut({
      type: "kubernetes:apps/v1:StatefulSet",
      name: "x",
      props: {
        metadata: { name: "rabbitmq-rabbitmq" },
        spec: statefulSet([
          { name: "PORT_HTTP", value: "15672" },
          { name: "RABBITMQ_ERLANG_COOKIE", value: "cookie-1" },
        ]),
      },
      opts: {},
      custom: true,
    } as pulumi.ResourceTransformArgs) as unknown as { props: { spec: ReturnType<typeof statefulSet> } };
    expect(out.props.spec.template.spec.containers).toEqual([
      { name: "init", env: [{ name: "X", value: "1" }] },
      {
        name: "rabbitmq",
        env: [
          { name: "PORT_HTTP", value: "15672" },
          { name: "RABBITMQ_ERLANG_COOKIE", valueFrom: { secretKeyRef: { name: "rabbitmq-erlang-cookie", key: "erlang_cookie" } } },
        ],
      },
    ]);
    expect(out.props.spec.template).toMatchObject({ metadata: { labels: { a: "b" } } });
    expect(JSON.stringify(out.props)).not.toContain("cookie-1");
  });

  it("a server without the cookie as a plain value is refused, naming it; other workloads pass unchanged", () => {
    expect(() => envFromSecrets("StatefulSet/rabbitmq-rabbitmq", statefulSet([{ name: "PORT_HTTP", value: "15672" }]))).toThrow(
      "StatefulSet/rabbitmq-rabbitmq: no container has RABBITMQ_ERLANG_COOKIE as a plain value",
    );
    const other = statefulSet([{ name: "RABBITMQ_ERLANG_COOKIE", value: "c" }]);
    expect(envFromSecrets("StatefulSet/mariadb-server", other)).toEqual(other);
    expect(
      keepSecretsOut({
        type: "kubernetes:apps/v1:Deployment",
        name: "x",
        props: { metadata: { name: "glance-api" }, spec: other },
        opts: {},
        custom: true,
      } as pulumi.ResourceTransformArgs),
    ).toBeUndefined();
  });
});
