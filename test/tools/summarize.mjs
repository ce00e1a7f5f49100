#!/usr/bin/env node
// Prints "N passed, N failed, N skipped" over test reports, the closing line CI reads, after one
// line per failing test (file, test, the first line of its error and its first `error:` line): CI shows only the log's tail.
// Reads vitest JSON reports (*.json) and TAP streams (*.tap, e.g. bats).
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

let passed = 0;
let skipped = 0;
const failures = [];

// The first line of an error, and its first `error:` line when that comes later: a failed Pulumi
// run of the Automation API is a CommandError whose first line says only "code: -2", the CLI's
// transcript (and its error) below it.
const headline = (text) => {
  const lines = (text ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const first = lines[0] ?? "";
  const error = lines.slice(1).find((l) => /^error:/.test(l));
  return (error === undefined ? first : `${first} … ${error}`).slice(0, 600);
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
    passed += report.numPassedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    for (const result of report.testResults ?? []) {
      const name = relative(process.cwd(), result.name);
      const failed = (result.assertionResults ?? []).filter((a) => a.status === "failed");
      for (const a of failed) failures.push(`${name} > ${a.fullName}: ${headline(a.failureMessages?.[0])}`);
      // A file that failed outside its tests (a hook: an integration file's canary scan, a setup
      // that threw) counts as one failure, or the closing line would say 0 failed.
      if (result.status === "failed" && failed.length === 0) failures.push(`${name} (outside its tests): ${headline(result.message)}`);
    }
  }
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failures.length} failed, ${skipped} skipped`);
