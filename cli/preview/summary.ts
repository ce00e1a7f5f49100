/**
 * A PR-comment-ready summary of a `pulumi preview`, built from the engine's events.
 *
 * Only property NAMES are printed, never values: a summary cannot leak a secret, whatever the
 * engine put in its events. Properties whose new value is a secret are marked as such.
 */
import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";

export interface ResourceChange {
  op: "create" | "update" | "replace" | "delete";
  urn: string;
  type: string;
  /** The resource's name (last URN segment). */
  name: string;
  /** Changed top-level properties, sorted. */
  properties: string[];
  /** Properties whose change forces the replacement. */
  replaceKeys: string[];
  /** Changed properties whose new value is secret. */
  secretProperties: string[];
}

const SHOWN: Partial<Record<OpType, ResourceChange["op"]>> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
};

/**
 * The changes of a preview, in engine order; "same", reads and replacement sub-steps are left out.
 * With `detailed`, properties are the full paths of the engine's detailed diff
 * (`spec.replicas`), as `pulumi preview --diff` shows them; otherwise top-level names.
 */
export function collectChanges(events: EngineEvent[], opts: { detailed?: boolean } = {}): ResourceChange[] {
  const names = opts.detailed ? (paths: string[]) => [...new Set(paths)].sort() : topLevel;
  const changes: ResourceChange[] = [];
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m) continue;
    const op = SHOWN[m.op];
    // The stack itself (pulumi:pulumi:Stack) is not a resource a reviewer acts on.
    if (!op || m.type === "pulumi:pulumi:Stack") continue;
    const properties = names(opts.detailed && m.detailedDiff ? Object.keys(m.detailedDiff) : [...(m.diffs ?? []), ...Object.keys(m.detailedDiff ?? {})]);
    changes.push({
      op,
      urn: m.urn,
      type: m.type,
      name: m.urn.split("::").pop() ?? m.urn,
      properties,
      replaceKeys: op === "replace" ? names(m.keys ?? []) : [],
      secretProperties: properties.filter((p) => isSecretMarker(m.new?.inputs?.[p.split(/[.[]/)[0]])),
    });
  }
  return changes;
}

export function countChanges(changes: ResourceChange[]): Record<ResourceChange["op"], number> {
  const counts = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const c of changes) counts[c.op]++;
  return counts;
}

const SYMBOL: Record<ResourceChange["op"], string> = { create: "+", update: "~", replace: "+-", delete: "-" };

/** Markdown for one stack: counts first, then every change with its changed properties. */
export function renderPreviewMarkdown(stack: string, changes: ResourceChange[]): string {
  const c = countChanges(changes);
  const lines = [
    `### Pulumi preview: ${code(stack)}`,
    "",
    "| create | update | replace | delete |",
    "|---:|---:|---:|---:|",
    `| ${c.create} | ${c.update} | ${c.replace} | ${c.delete} |`,
    "",
  ];
  if (changes.length === 0) {
    lines.push("No changes.");
    return lines.join("\n") + "\n";
  }
  lines.push(`<details open><summary>${changes.length} change${changes.length === 1 ? "" : "s"}</summary>`, "");
  lines.push("| | resource | type | changed properties |", "|---|---|---|---|");
  for (const ch of changes) {
    const props = ch.properties.map((p) => {
      const notes = [ch.replaceKeys.includes(p) ? "forces replacement" : "", ch.secretProperties.includes(p) ? "secret" : ""].filter(Boolean);
      return `${code(p)}${notes.length ? ` (${notes.join(", ")})` : ""}`;
    });
    lines.push(`| \`${SYMBOL[ch.op]}\` ${ch.op} | ${code(ch.name)} | ${code(ch.type)} | ${props.join(", ")} |`);
  }
  lines.push("", "</details>");
  return lines.join("\n") + "\n";
}

/** `spec.template.containers[0].image` → `spec`: reviewers read top-level properties. */
function topLevel(paths: string[]): string[] {
  return [...new Set(paths.map((p) => p.split(/[.[]/)[0]).filter(Boolean))].sort();
}

/** The engine shows a secret value as the string "[secret]" or a secret-signature object. */
function isSecretMarker(v: unknown): boolean {
  if (v === "[secret]") return true;
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270";
}

/**
 * `s` as an inline code span inside a table cell, whatever it holds: names come from the program
 * and its inputs (a property name may be anything), so a backtick, a line break or a `|` must not
 * end the span, the cell or the line (and let a heading or an `<img>` into the comment). Control
 * characters become spaces, `|` is escaped (GFM tables read it before code spans), and the fence
 * is one backtick longer than the longest run inside.
 */
export function code(s: string): string {
  const text = s.replace(/\p{Cc}/gu, " ").replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || text.trim() === "" ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
