#!/usr/bin/env node
// Prints "N passed, N failed, N skipped" over test reports, the closing line CI reads:
// vitest JSON reports (*.json) and TAP streams (*.tap, e.g. bats).
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
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
      else if (/^not ok \d+/.test(line)) failed++;
    }
  } else {
    const report = JSON.parse(text);
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    // A file that failed outside its tests (a hook: an integration file's canary scan, a setup
    // that threw) counts as one failure, or the closing line would say 0 failed.
    failed += (report.testResults ?? []).filter((r) => r.status === "failed" && !(r.assertionResults ?? []).some((a) => a.status === "failed")).length;
    skipped += report.numPendingTests + report.numTodoTests;
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
