#!/usr/bin/env node
// Prints "N passed, N failed, N skipped" over test reports, the closing line CI reads, after one
// line per failing test (file, test, the first line of its error and its most telling `error:` line):
// CI shows only the log's tail. Reads vitest JSON reports (*.json, each with the errors of no test
// beside it in *.hook-errors) and TAP streams (*.tap, e.g. bats).
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

let passed = 0;
let skipped = 0;
const failures = [];

// The first line of an error, then its most telling `error:` line. A failed Pulumi run of the
// Automation API is a CommandError whose first line says only "code: -2", the CLI's transcript
// below it, where the stack's "error: update failed" often comes before the resource's own error:
// that one is shown, with the resource it names (the line above) and its "* ..." causes (below).
const GENERIC = /^error: (update|preview|destroy|refresh|import) failed$/;
const headline = (text) => {
  const lines = (text ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const first = lines[0] ?? "";
  const isError = (l, i) => i > 0 && /^error:/.test(l);
  let at = lines.findIndex((l, i) => isError(l, i) && !GENERIC.test(l));
  if (at < 0) at = lines.findIndex(isError);
  if (at < 0) return first.slice(0, 600);
  const owner = at > 1 && /\):$/.test(lines[at - 1]) ? [lines[at - 1]] : [];
  const causes = [];
  for (let i = at + 1; i < lines.length && causes.length < 3 && lines[i].startsWith("*"); i++) causes.push(lines[i]);
  return [first, "…", ...owner, lines[at], ...causes].join(" ").slice(0, 600);
};

// The errors of no test that test/tools/hook-errors-reporter.mjs wrote beside a vitest report.
const hookErrors = (report) => {
  const file = report.replace(/\.json$/, ".hook-errors");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
};

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`summarize: no report at ${file}`);
    process.exitCode = 1;
    continue;
  }
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".tap")) {
    for (const line of text.split("\n")) {
      if (/^ok \d+.*# skip/i.test(line)) skipped++;
      else if (/^ok \d+/.test(line)) passed++;
      else if (/^not ok \d+/.test(line)) failures.push(`${file}: ${line}`);
    }
  } else {
    const report = JSON.parse(text);
    const hooks = hookErrors(file);
    passed += report.numPassedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const result of report.testResults ?? []) {
      const name = relative(process.cwd(), result.name);
      const failed = (result.assertionResults ?? []).filter((a) => a.status === "failed");
      for (const a of failed) failures.push(`${name} > ${a.fullName}: ${headline(a.failureMessages?.[0])}`);
      // A file that failed outside its tests (a hook: an integration file's canary scan, a setup
      // that threw) counts as one failure, or the closing line would say 0 failed; its hooks'
      // errors say why (the report's own message is empty when a describe's hook threw).
      if (result.status !== "failed" || failed.length > 0) continue;
      const own = hooks.filter((e) => e.file === result.name);
      const why = own.length > 0 ? own.map((e) => `${e.where ? `${e.where}: ` : ""}${headline(e.message)}`).join(" | ") : headline(result.message);
      failures.push(`${name} (outside its tests): ${why}`);
    }
    // Errors vitest met outside any file (an unhandled rejection): the run failed on them.
    for (const e of hooks.filter((h) => h.file === "")) failures.push(`${file}: ${e.where}: ${headline(e.message)}`);
  }
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failures.length} failed, ${skipped} skipped`);
