/**
 * test/tools/summarize.mjs, the closing lines of `npm run test:all`: CI shows only the log's tail,
 * so each failing test is named there (file, test, its error's first line and first `error:` line) above the count.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "summarize-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("names each failing test, a file that failed outside its tests and a failing TAP line, then counts", () => {
  const report = {
    numPassedTests: 2,
    numFailedTests: 1,
    numPendingTests: 1,
    numTodoTests: 0,
    testResults: [
      {
        name: join(process.cwd(), "test/integration/a.test.ts"),
        status: "failed",
        message: "",
        assertionResults: [
          { status: "passed", fullName: "a works" },
          { status: "failed", fullName: "a > heals", failureMessages: ["\nAssertionError: expected 1 to be 2\n    at a.test.ts:3"] },
          {
            status: "failed",
            fullName: "a > ups",
            failureMessages: ["CommandError: code: -2\n stdout: Updating\n stderr: Command failed\nerror: update failed\nerror: second\n    at cmd.js:1"],
          },
        ],
      },
      {
        name: join(process.cwd(), "test/integration/b.test.ts"),
        status: "failed",
        message: "canary hits: 1\nmore",
        assertionResults: [{ status: "passed", fullName: "b" }],
      },
      { name: join(process.cwd(), "test/integration/c.test.ts"), status: "passed", assertionResults: [{ status: "pending", fullName: "c" }] },
    ],
  };
  writeFileSync(join(dir, "r.json"), JSON.stringify(report));
  writeFileSync(join(dir, "s.tap"), "1..3\nok 1 one\nnot ok 2 two breaks\nok 3 three # skip no lab\n");
  const out = execFileSync("node", ["test/tools/summarize.mjs", join(dir, "r.json"), join(dir, "s.tap")], { encoding: "utf8" });
  expect(out.trimEnd().split("\n")).toEqual([
    "FAILED test/integration/a.test.ts > a > heals: AssertionError: expected 1 to be 2",
    "FAILED test/integration/a.test.ts > a > ups: CommandError: code: -2 … error: update failed",
    "FAILED test/integration/b.test.ts (outside its tests): canary hits: 1",
    `FAILED ${join(dir, "s.tap")}: not ok 2 two breaks`,
    "3 passed, 4 failed, 2 skipped",
  ]);
});
