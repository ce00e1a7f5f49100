import type { EngineEvent } from "@pulumi/pulumi/automation";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { code, collectChanges, countChanges, renderPreviewMarkdown } from "../../../cli/preview/summary";

const urn = (type: string, name: string) => `urn:pulumi:local::pulumi-nfv::${type}::${name}`;

function pre(op: string, type: string, name: string, extra: Record<string, unknown> = {}): EngineEvent {
  return { sequence: 0, timestamp: 0, resourcePreEvent: { metadata: { op, urn: urn(type, name), type, provider: "", ...extra } } } as unknown as EngineEvent;
}

const EVENTS: EngineEvent[] = [
  pre("same", "pulumi:pulumi:Stack", "pulumi-nfv-local"),
  pre("create", "pulumi:providers:kubernetes", "edge-provider", { new: { inputs: { kubeconfig: "[secret]" } }, diffs: [] }),
  pre("update", "kubernetes:apps/v1:Deployment", "cnf-vdu1", { diffs: ["spec"], detailedDiff: { "spec.replicas": { diffKind: "update", inputDiff: true } } }),
  pre("replace", "openstack:compute/instance:Instance", "vnf-vdu1-0", { keys: ["imageName"], diffs: ["imageName", "metadata"] }),
  pre("create-replacement", "openstack:compute/instance:Instance", "vnf-vdu1-0", { keys: ["imageName"] }),
  pre("delete-replaced", "openstack:compute/instance:Instance", "vnf-vdu1-0"),
  pre("delete", "command:remote:Command", "vnf-hook-scale-end", { new: undefined, diffs: [] }),
  pre("update", "pulumi:providers:kubernetes", "edge-provider-2", { diffs: ["kubeconfig"], new: { inputs: { kubeconfig: "[secret]" } } }),
  { sequence: 9, timestamp: 0, diagnosticEvent: { message: "hello", color: "never", severity: "info" } } as unknown as EngineEvent,
];

describe("preview summary", () => {
  it("keeps create/update/replace/delete, once per resource, without the stack", () => {
    const changes = collectChanges(EVENTS);
    expect(changes.map((c) => [c.op, c.name])).toEqual([
      ["create", "edge-provider"],
      ["update", "cnf-vdu1"],
      ["replace", "vnf-vdu1-0"],
      ["delete", "vnf-hook-scale-end"],
      ["update", "edge-provider-2"],
    ]);
    expect(countChanges(changes)).toEqual({ create: 1, update: 2, replace: 1, delete: 1 });
  });

  it("names changed top-level properties, what forces replacement and what is secret", () => {
    const [, update, replace, , secret] = collectChanges(EVENTS);
    expect(update.properties).toEqual(["spec"]);
    expect(replace).toMatchObject({ properties: ["imageName", "metadata"], replaceKeys: ["imageName"] });
    expect(secret.secretProperties).toEqual(["kubeconfig"]);
  });

  it("renders Markdown with counts and one row per change", () => {
    const md = renderPreviewMarkdown("local", collectChanges(EVENTS));
    expect(md).toContain("### Pulumi preview: `local`");
    expect(md).toContain("| 1 | 2 | 1 | 1 |");
    expect(md).toContain("| `+-` replace | `vnf-vdu1-0` | `openstack:compute/instance:Instance` | `imageName` (forces replacement), `metadata` |");
    expect(md).toContain("| `~` update | `edge-provider-2` | `pulumi:providers:kubernetes` | `kubeconfig` (secret) |");
  });

  it("never prints a property value, so no secret can reach a PR comment", () => {
    const leaky = pre("update", "x:y:Z", "r", { diffs: ["password"], old: { inputs: { password: "hunter2" } }, new: { inputs: { password: "hunter3" } } });
    expect(renderPreviewMarkdown("s", collectChanges([leaky]))).not.toMatch(/hunter/);
  });

  it("says so when there is nothing to do", () => {
    expect(renderPreviewMarkdown("prod", collectChanges([pre("same", "x:y:Z", "r")]))).toContain("No changes.");
  });
});

describe("preview summary with --diff", () => {
  it("lists the detailed diff's full property paths", () => {
    const [, update] = collectChanges(EVENTS, { detailed: true });
    expect(update.properties).toEqual(["spec.replicas"]);
  });

  it("escapes property, resource and type names: a backtick, a line break or a `|` cannot inject a heading or an <img>", () => {
    const evil = "x`\n### Injected\n<img src=x onerror=alert(1)>|y";
    const md = renderPreviewMarkdown("local", collectChanges([pre("update", "t:m:T", `r\`|${evil}`, { diffs: [evil] })], { detailed: true }));
    const lines = md.split("\n");
    expect(lines.filter((l) => l.startsWith("###"))).toEqual(["### Pulumi preview: `local`"]);
    const row = lines.find((l) => l.startsWith("| `~` update"))!;
    // The row stays one line of four cells (unescaped pipes only between cells).
    expect(row.split(/(?<!\\)\|/)).toHaveLength(6);
    expect(row).toContain("``x` ### Injected <img src=x onerror=alert(1)>\\|y``");
  });
});

describe("code spans", () => {
  it("any text: one line, a fence longer than every backtick run inside, no unescaped `|`", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom("`", "|", "\n", "\r", "<", "#", " ", "\\"),
            fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
          ),
          maxLength: 30,
        }),
        (s) => {
          const c = code(s);
          expect(c).not.toMatch(/[\n\r]/);
          const fence = /^`+/.exec(c)![0];
          expect(c.endsWith(fence)).toBe(true);
          const inner = c.slice(fence.length, c.length - fence.length);
          for (const run of inner.match(/`+/g) ?? []) expect(run.length).toBeLessThan(fence.length);
          expect(inner).not.toMatch(/^`|`$/);
          expect(inner.replace(/\\\|/g, "")).not.toContain("|");
        },
      ),
      { numRuns: 3000 },
    );
  });
});
