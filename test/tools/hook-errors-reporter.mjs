// A vitest reporter beside the JSON one: writes the errors that belong to no test (a describe's
// beforeAll or afterAll that threw, a module's own hooks, errors outside the run) to `outputFile`,
// as [{ file, where, message }]. vitest's JSON report keeps only a module's own errors, so a
// describe whose beforeAll threw showed in CI's tail as a failed file with no message and its
// tests skipped (the OIDC file, 2026-12-07); test/tools/summarize.mjs reads this file beside it.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export default class HookErrorsReporter {
  constructor(options = {}) {
    this.outputFile = options.outputFile;
  }

  onTestRunEnd(testModules, unhandledErrors = []) {
    if (!this.outputFile) return;
    const errors = [];
    const text = (e) => e.stack || e.message || String(e);
    for (const module of testModules) {
      for (const e of module.errors()) errors.push({ file: module.moduleId, where: "", message: text(e) });
      for (const suite of module.children.allSuites()) {
        for (const e of suite.errors()) errors.push({ file: module.moduleId, where: suite.fullName, message: text(e) });
      }
    }
    for (const e of unhandledErrors) errors.push({ file: "", where: "an error outside the tests", message: text(e) });
    mkdirSync(dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, JSON.stringify(errors, null, 1));
  }
}
