/**
 * `nfv translate <package> [--flavour ID] [--request FILE] [--format json|mermaid|dot|text]`:
 * the VNF model and the component graph of one flavour. For an NS package, with `--vnf ID=PACKAGE`
 * per constituent (`--request ID=FILE`, `--vim ID=openstack|kubernetes`, `--level ID`): the NS plan.
 */
import type { Diagnostic } from "../../translators/diagnostics";
import { renderDot } from "../../translators/graph/render-dot";
import { renderMermaid } from "../../translators/graph/render-mermaid";
import { loadNsPackage, type ConstituentSource } from "../../translators/load-ns-package";
import { loadVnfPackage } from "../../translators/load-vnf-package";
import { renderNsMermaid, renderNsText } from "../../translators/ns/render";
import { oneOf, parseArgs, UsageError, type ParsedArgs } from "../args";
import { diagnosticJson, diagnosticLines, summary } from "../diagnostics-output";
import { EXIT_OK, EXIT_PROBLEMS, type Command, type Io } from "../io";
import { translateJson } from "../translate-json";
import { renderText } from "../translate-text";

const FORMATS = ["json", "mermaid", "dot", "text"] as const;
const VIM_KINDS = ["openstack", "kubernetes"] as const;

export const command: Command = {
  usage:
    [
      "usage: nfv translate <package> [--flavour ID] [--request FILE] [--vnf-instance-id ID] [--format json|mermaid|dot|text]",
      "       nfv translate <ns-package> --vnf ID=PACKAGE ... [--request ID=FILE ...] [--vim ID=openstack|kubernetes ...]",
      "                     [--flavour ID] [--level ID] [--format json|mermaid|text]",
      "",
      "  --flavour   deployment flavour to plan (default: the request's flavourId, else the first flavour;",
      "              for an NS, its first NS flavour)",
      "  --request   a Tacker InstantiateVnfRequest JSON file (instantiation level, external networks);",
      "              for an NS, ID=FILE for one constituent (default: the NSD's VNF flavour)",
      "  --vnf-instance-id  a CNF's instance id, which names some objects (a legacy VDU's, a Helm",
      "              release without helm_release_name) as up names them (default: the all-zero UUID)",
      "  --vnf       an NS package's constituent: the NSD's VNF node ID and its VNF package (repeatable)",
      "  --vim       the kind of VIM a constituent goes on (default: what its component needs)",
      "  --level     the NS instantiation level (default: the flavour's default level)",
      "  --format    json (default): model summary, component graph and diagnostics, as documented in",
      "              translators/tosca/README.md (an NS: its plan); mermaid or dot: the component graph",
      "              (an NS: its constituents and links, mermaid only); text: a summary",
      "",
      "Exit status: 0 no error, 1 at least one error, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const parsed = parseArgs(args, ["flavour", "format", "level", "vnf-instance-id"], [], ["request", "vnf", "vim"]);
    const { positionals, options, lists } = parsed;
    const format = oneOf(options.get("format"), FORMATS, "json", "format");
    if (positionals.length !== 1) throw new UsageError("expected exactly one package");
    if (lists.has("vnf")) return translateNs(positionals[0], parsed, format, io);
    if (options.has("level") || lists.has("vim")) throw new UsageError("--level and --vim are for NS packages (with --vnf)");
    const requests = lists.get("request") ?? [];
    if (requests.length > 1) throw new UsageError("--request: one request for a VNF package");
    const requestFile = requests[0];
    const { model, graph, diagnostics } = await loadVnfPackage(positionals[0], requestFile, {
      flavourId: options.get("flavour"),
      vnfInstanceId: options.get("vnf-instance-id"),
    });
    // An NS package without --vnf: its own problems and what its constituents are, planned without them.
    if (diagnostics.some((d) => d.code === "PKG_IS_NSD")) return translateNs(positionals[0], parsed, format, io);
    // An unreadable --request is a usage error (exit 2), not a problem of the package.
    const unreadable = diagnostics.find((d) => d.code === "REQUEST_UNREADABLE");
    if (unreadable) throw new UsageError(`--request ${requestFile} ${unreadable.message}`);
    const failed = diagnostics.some((d) => d.severity === "error");
    if (format === "json") io.out(JSON.stringify(translateJson(model, graph, diagnostics), null, 2) + "\n");
    else if (format === "text") io.out((model ? renderText(model, graph) : "") + diagnosticLines(diagnostics) + summary(diagnostics));
    else {
      if (graph && !failed) io.out(format === "dot" ? renderDot(graph) : renderMermaid(graph));
      reportTo(io.err, diagnostics);
    }
    return failed ? EXIT_PROBLEMS : EXIT_OK;
  },
};

/** `ID=VALUE` options by ID; an ID given twice, or one the NS has no `--vnf` for, is a usage error. */
function byId(values: string[], option: string, known?: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of values) {
    const i = v.indexOf("=");
    if (i <= 0 || i === v.length - 1)
      throw new UsageError(`--${option} ${v}: expected ID=${option === "vim" ? "openstack|kubernetes" : option === "vnf" ? "PACKAGE" : "FILE"}`);
    const id = v.slice(0, i);
    if (out.has(id)) throw new UsageError(`--${option} ${id} given twice`);
    if (known && !known.has(id)) throw new UsageError(`--${option} ${id}: no --vnf ${id}=PACKAGE`);
    out.set(id, v.slice(i + 1));
  }
  return out;
}

async function translateNs(path: string, { options, lists }: ParsedArgs, format: (typeof FORMATS)[number], io: Io): Promise<number> {
  if (format === "dot") throw new UsageError("--format dot: an NS plan is drawn in mermaid only");
  if (options.has("vnf-instance-id")) throw new UsageError("--vnf-instance-id is for a VNF package");
  const vnfs = byId(lists.get("vnf") ?? [], "vnf");
  const requests = byId(lists.get("request") ?? [], "request", new Set(vnfs.keys()));
  const vims = byId(lists.get("vim") ?? [], "vim", new Set(vnfs.keys()));
  const sources: Record<string, ConstituentSource> = {};
  for (const [id, packagePath] of vnfs) {
    const vim = vims.get(id);
    if (vim !== undefined && !(VIM_KINDS as readonly string[]).includes(vim)) throw new UsageError(`--vim ${id}=${vim}: must be openstack or kubernetes`);
    sources[id] = { packagePath, ...(requests.has(id) ? { request: requests.get(id) } : {}), ...(vim ? { vimKind: vim as (typeof VIM_KINDS)[number] } : {}) };
  }
  const loaded = await loadNsPackage(path, sources, { flavourId: options.get("flavour"), levelId: options.get("level") });
  const { diagnostics, ns, plan } = loaded;
  const failed = diagnostics.some((d) => d.severity === "error");
  if (format === "json") io.out(JSON.stringify({ ns: ns?.ns, plan, diagnostics: diagnostics.map(diagnosticJson) }, null, 2) + "\n");
  else if (format === "text") io.out((ns && plan ? renderNsText(ns, plan) : "") + diagnosticLines(diagnostics) + summary(diagnostics));
  else {
    if (plan && !failed) io.out(renderNsMermaid(plan));
    reportTo(io.err, diagnostics);
  }
  return failed ? EXIT_PROBLEMS : EXIT_OK;
}

/** Graph formats keep stdout a valid diagram; problems go to stderr. */
function reportTo(write: (s: string) => void, diagnostics: Diagnostic[]): void {
  if (diagnostics.length > 0) write(diagnosticLines(diagnostics));
}
