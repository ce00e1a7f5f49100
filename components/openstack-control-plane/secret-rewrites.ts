/**
 * openstack-helm's rendered objects that let a secret out, rewritten by a transform of every
 * chart's children (the charts themselves are not edited):
 * - scripts that put a password on a command line, where every process of the node reads it
 *   (`/proc/<pid>/cmdline`) and a script's `set -x` prints it into the pod's log: rewritten in the
 *   charts' `<chart>-bin` ConfigMaps to take it from the environment the Jobs already give them
 *   (by `secretKeyRef`);
 * - a secret written as a plain `env` value of a workload, which the state and `kubectl get` then
 *   show (only Secrets' data is kept secret): read from the chart's own Secret instead.
 * Each rewrite first checks the upstream text it replaces: a chart that changed fails the `up`
 * naming the object, rather than deploying a secret in the open again.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { SCRIPTS_DIR } from "./cinder";

/** One replacement in one script: `upstream` must occur exactly once. */
interface Edit {
  upstream: string;
  ours: string;
}

/** The edits of each script, by `<ConfigMap>/<key>`; `*` for the script in every chart's ConfigMap. */
const EDITS: Readonly<Record<string, Edit[]>> = {
  // keystone-manage reads the bootstrap password from OS_BOOTSTRAP_PASSWORD when the argument is
  // absent; the script runs under `set -x`, which must not print the export.
  "keystone-bin/db-sync.sh": [
    { upstream: "    --bootstrap-password ${OS_PASSWORD} \\\n", ours: "" },
    {
      upstream: "keystone-manage --config-file=/etc/keystone/keystone.conf bootstrap \\\n",
      ours: 'set +x\nexport OS_BOOTSTRAP_PASSWORD="${OS_PASSWORD}"\nset -x\nkeystone-manage --config-file=/etc/keystone/keystone.conf bootstrap \\\n',
    },
  ],
  // helm-toolkit's ks-user: `openstack user set --password=...`; openstacksdk (which the OpenStack
  // client runs on) sets it from the environment, with the same admin credentials (OS_*).
  "*/ks-user.sh": [
    {
      upstream: 'openstack user set --password="${SERVICE_OS_PASSWORD}" "${USER_ID}"\n',
      ours: `python3 -c 'import os, sys, openstack; openstack.connect().identity.update_user(sys.argv[1], password=os.environ["SERVICE_OS_PASSWORD"])' "\${USER_ID}"\n`,
    },
  ],
  // nova-manage's update_cell takes a cell's database and transport URLs (their passwords in them)
  // from the configuration when they are not arguments: each goes in a config file of its own, read
  // after nova.conf, written by the shell's printf (a builtin: no command line) under `set +x`.
  "nova-bin/db-sync.sh": [
    {
      upstream:
        '    nova-manage cell_v2 update_cell \\\n      --cell_uuid="${CELL0_ID}" \\\n      --name="cell0" \\\n      --transport-url="${CELL0_TRANSPORT}" \\\n      --database_connection="${DB_CONNECTION_CELL0}"\n',
      ours:
        "    (umask 077; printf '[database]\\nconnection = %s\\n' \"${DB_CONNECTION_CELL0}\" >/tmp/cell0.conf)\n" +
        '    nova-manage --config-file /etc/nova/nova.conf --config-file /tmp/cell0.conf cell_v2 update_cell \\\n      --cell_uuid="${CELL0_ID}" \\\n      --name="cell0" \\\n      --transport-url="${CELL0_TRANSPORT}"\n',
    },
    {
      upstream:
        '    nova-manage cell_v2 update_cell \\\n      --cell_uuid="${CELL1_ID}" \\\n      --name="cell1" \\\n      --transport-url="${TRANSPORT_URL}" \\\n      --database_connection="${DB_CONNECTION}"\n',
      ours:
        '    (umask 077; printf \'[DEFAULT]\\ntransport_url = %s\\n[database]\\nconnection = %s\\n\' "${TRANSPORT_URL}" "${DB_CONNECTION}" >/tmp/cell1.conf)\n' +
        '    nova-manage --config-file /etc/nova/nova.conf --config-file /tmp/cell1.conf cell_v2 update_cell \\\n      --cell_uuid="${CELL1_ID}" \\\n      --name="cell1"\n',
    },
  ],
  // MariaDB's start.py runs mysql_upgrade with `--password=` when the data directory exists (a
  // server pod re-created on its node); MariaDB's clients read MYSQL_PWD instead.
  "mariadb-bin/start.py": [
    {
      upstream: `                     "--user={0}".format(mysql_dbadmin_username),\n                     "--password={0}".format(mysql_dbadmin_password)]\n`,
      ours: `                     "--user={0}".format(mysql_dbadmin_username)]\n        os.environ['MYSQL_PWD'] = mysql_dbadmin_password\n`,
    },
  ],
};

/**
 * Scripts replaced whole, by key, with the upstream text that identifies them: helm-toolkit's
 * rabbit-init calls `rabbitmqadmin --password=... declare user password=...`; rabbit-user.py
 * does the same through the management API, from the same environment.
 */
const REPLACED: Readonly<Record<string, { upstream: string; ours: string }>> = {
  "rabbit-init.sh": { upstream: "rabbitmqadmin_cli", ours: "rabbit-user.py" },
};

/** The script `key` of the ConfigMap `configMap` as it runs: `text` with its password taken off the command line. */
export function rewriteScript(configMap: string, key: string, text: string): string {
  const replaced = REPLACED[key];
  if (replaced) {
    if (!text.includes(replaced.upstream)) throw scriptChanged(configMap, key, replaced.upstream);
    return readFileSync(path.join(SCRIPTS_DIR, replaced.ours), "utf8");
  }
  let out = text;
  for (const edit of [...(EDITS[`${configMap}/${key}`] ?? []), ...(EDITS[`*/${key}`] ?? [])]) {
    const at = out.indexOf(edit.upstream);
    if (at < 0 || out.indexOf(edit.upstream, at + 1) >= 0) throw scriptChanged(configMap, key, edit.upstream);
    out = out.slice(0, at) + edit.ours + out.slice(at + edit.upstream.length);
  }
  return out;
}

function scriptChanged(configMap: string, key: string, upstream: string): Error {
  return new Error(
    `ConfigMap ${configMap}, script ${key}: the chart's script no longer has, exactly once, ${JSON.stringify(upstream.trim())}, ` +
      "which components/openstack-control-plane/secret-rewrites.ts rewrites to keep a password off its command line; review the rewrite for this chart version",
  );
}

/** Plain env values of a workload's containers that are secrets, by workload: the Secret and key to read each from. */
const ENV_FROM_SECRET: Readonly<Record<string, Record<string, { name: string; key: string }>>> = {
  // The Erlang cookie grants control of the RabbitMQ node; the chart has it in its Secret `<release>-erlang-cookie` too.
  "StatefulSet/rabbitmq-rabbitmq": { RABBITMQ_ERLANG_COOKIE: { name: "rabbitmq-erlang-cookie", key: "erlang_cookie" } },
};

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
interface Container {
  name: string;
  env?: EnvVar[];
}

/** The workload's pod spec with each of `vars` read from its Secret; a var given nowhere as a plain value is refused. */
export function envFromSecrets(workload: string, spec: { template: { spec: { containers: Container[] } } }): typeof spec {
  const vars = ENV_FROM_SECRET[workload] ?? {};
  const found = new Set<string>();
  const containers = spec.template.spec.containers.map((c) => ({
    ...c,
    ...(c.env
      ? {
          env: c.env.map((e) => {
            const from = vars[e.name];
            if (!from || e.value === undefined) return e;
            found.add(e.name);
            return { name: e.name, valueFrom: { secretKeyRef: from } };
          }),
        }
      : {}),
  }));
  const missing = Object.keys(vars).filter((v) => !found.has(v));
  if (missing.length > 0)
    throw new Error(
      `${workload}: no container has ${missing.join(", ")} as a plain value, which components/openstack-control-plane/secret-rewrites.ts reads from a Secret instead; review the rewrite for this chart version`,
    );
  return { ...spec, template: { ...spec.template, spec: { ...spec.template.spec, containers } } };
}

const KIND_OF_TYPE: Readonly<Record<string, string>> = { "kubernetes:apps/v1:StatefulSet": "StatefulSet", "kubernetes:apps/v1:Deployment": "Deployment" };

/** A transform of a chart's children: its `-bin` ConfigMaps' scripts through `rewriteScript`, its workloads through `envFromSecrets`. */
export const keepSecretsOut: pulumi.ResourceTransform = (args) => {
  const name = (args.props.metadata as { name?: string } | undefined)?.name ?? "";
  const workload = `${KIND_OF_TYPE[args.type]}/${name}`;
  if (workload in ENV_FROM_SECRET) {
    const spec = envFromSecrets(workload, args.props.spec as Parameters<typeof envFromSecrets>[1]);
    return { props: { ...args.props, spec }, opts: args.opts };
  }
  if (args.type !== "kubernetes:core/v1:ConfigMap") return undefined;
  const data = args.props.data as Record<string, string> | undefined;
  if (!name.endsWith("-bin") || !data) return undefined;
  const rewritten = Object.fromEntries(Object.entries(data).map(([key, text]) => [key, rewriteScript(name, key, text)]));
  return { props: { ...args.props, data: rewritten }, opts: args.opts };
};
