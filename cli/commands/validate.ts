/** `nfv validate <package> [--format text|json] [--strict]`: every problem of a VNF or NS package; exit 1 if any is an error. */
import { oneOf, parseArgs, UsageError } from "../args";
import { diagnosticJson, diagnosticLines, summary } from "../diagnostics-output";
import { EXIT_OK, EXIT_PROBLEMS, type Command } from "../io";
import { translatePackage } from "../../translators/tosca/translate";

export const command: Command = {
  usage:
    [
      "usage: nfv validate <package> [--format text|json] [--strict]",
      "",
      "  <package>   a VNF or NS package directory, a .zip/.csar file, or a single VNFD YAML file",
      "  --format    text (default): `file:line:col: error|warning CODE: message` per problem",
      '              json: {"diagnostics":[{severity,code,message,file,line,column,path}]}',
      "  --strict    what SOL001/SOL004/YAML forbid but Tacker accepts is an error, not a warning",
      "",
      "Exit status: 0 no error, 1 at least one error, 2 bad usage.",
    ].join("\n") + "\n",
  async run(args, io) {
    const { positionals, options, flags } = parseArgs(args, ["format"], ["strict"]);
    const format = oneOf(options.get("format"), ["text", "json"] as const, "text", "format");
    if (positionals.length !== 1) throw new UsageError("expected exactly one package");
    const { diagnostics } = await translatePackage(positionals[0], { strict: flags.has("strict"), expect: "any" });
    if (format === "json") io.out(JSON.stringify({ diagnostics: diagnostics.map(diagnosticJson) }, null, 2) + "\n");
    else io.out(diagnosticLines(diagnostics) + summary(diagnostics));
    return diagnostics.some((d) => d.severity === "error") ? EXIT_PROBLEMS : EXIT_OK;
  },
};
