/**
 * `nfv translate <package> [--flavour ID] [--request FILE] [--format json|mermaid|dot|text]`:
 * the VNF model and the component graph of one flavour.
 */
import type { Diagnostic } from "../../translators/diagnostics";
import { renderDot } from "../../translators/graph/render-dot";
import { renderMermaid } from "../../translators/graph/render-mermaid";
import { loadVnfPackage } from "../../translators/load-vnf-package";
import { oneOf, parseArgs, UsageError } from "../args";
import { diagnosticLines, summary } from "../diagnostics-output";
import { EXIT_OK, EXIT_PROBLEMS, type Command } from "../io";
import { translateJson } from "../translate-json";
import { renderText } from "../translate-text";

const FORMATS = ["json", "mermaid", "dot", "text"] as const;

export const command: Command = {
  usage:
    [
      "usage: nfv translate <package> [--flavour ID] [--request FILE] [--format json|mermaid|dot|text]",
      "",
      "  --flavour   deployment flavour to plan (default: the request's flavourId, else the first flavour)",
      "  --request   a Tacker InstantiateVnfRequest JSON file (instantiation level, external networks)",
      "  --format    json (default): model summary, component graph and diagnostics, as documented in",
      "              translators/tosca/README.md; mermaid or dot: the component graph; text: a summary",
      "",
      "Exit status: 0 no error, 1 at least one error, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options } = parseArgs(args, ["flavour", "request", "format"]);
    const format = oneOf(options.get("format"), FORMATS, "json", "format");
    if (positionals.length !== 1) throw new UsageError("expected exactly one package");
    const requestFile = options.get("request");
    const { model, graph, diagnostics } = await loadVnfPackage(positionals[0], requestFile, { flavourId: options.get("flavour") });
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

/** Graph formats keep stdout a valid diagram; problems go to stderr. */
function reportTo(write: (s: string) => void, diagnostics: Diagnostic[]): void {
  if (diagnostics.length > 0) write(diagnosticLines(diagnostics));
}
