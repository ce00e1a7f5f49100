/**
 * test/tools/summarize.mjs, the closing lines of `npm run test:all`: CI shows only the log's tail,
 * so each failing test is named there (file, test, its error's first line and its most telling
 * `error:` line) above the count, and a file whose describe's hook threw with that hook's error.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "summarize-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("names each failing test, a file that failed outside its tests (with its hooks' errors), an error outside any file and a failing TAP line, then counts", () => {
  const report = {
    numPassedTests: 2,
    numFailedTests: 1,
    numPendingTests: 2,
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
            failureMessages: ["CommandError: code: -2\n stdout: Updating\n stderr: Command failed\nerror: update failed\n    at cmd.js:1"],
          },
          {
            status: "failed",
            fullName: "a > ups again",
            // What execa gives for a failed `pulumi up`: stderr, then stdout's diagnostics.
            failureMessages: [
              [
                "CommandError: code: -2",
                " stderr: Command failed with exit code 255: pulumi up --yes",
                "error: update failed",
                "Diagnostics:",
                "  pulumi:pulumi:Stack (p-it):",
                "    error: update failed",
                "  openstack:compute:Instance (w-0):",
                "    error: 1 error occurred:",
                "    \t* creating urn:x: 1 error occurred:",
                "    \t* Error waiting for instance (42) to become ready: unexpected state 'ERROR'",
                "Resources:",
              ].join("\n"),
            ],
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
      // A describe whose beforeAll threw: its tests skipped, the report's message empty.
      {
        name: join(process.cwd(), "test/integration/d.test.ts"),
        status: "failed",
        message: "",
        assertionResults: [{ status: "skipped", fullName: "d > one" }],
      },
    ],
  };
  writeFileSync(join(dir, "r.json"), JSON.stringify(report));
  const hookErrors = [
    { file: join(process.cwd(), "test/integration/d.test.ts"), where: "d", message: "Error: Command failed: lab/oidc/up\n    at d.test.ts:9" },
    { file: "", where: "an error outside the tests", message: "TypeError: x is undefined" },
  ];
  writeFileSync(join(dir, "r.hook-errors"), JSON.stringify(hookErrors));
  writeFileSync(join(dir, "s.tap"), "1..3\nok 1 one\nnot ok 2 two breaks\nok 3 three # skip no lab\n");
  const out = execFileSync("node", ["test/tools/summarize.mjs", join(dir, "r.json"), join(dir, "s.tap")], { encoding: "utf8" });
  expect(out.trimEnd().split("\n")).toEqual([
    "FAILED test/integration/a.test.ts > a > heals: AssertionError: expected 1 to be 2",
    "FAILED test/integration/a.test.ts > a > ups: CommandError: code: -2 … error: update failed",
    "FAILED test/integration/a.test.ts > a > ups again: CommandError: code: -2 … openstack:compute:Instance (w-0): error: 1 error occurred: " +
      "* creating urn:x: 1 error occurred: * Error waiting for instance (42) to become ready: unexpected state 'ERROR'",
    "FAILED test/integration/b.test.ts (outside its tests): canary hits: 1",
    "FAILED test/integration/d.test.ts (outside its tests): d: Error: Command failed: lab/oidc/up",
    `FAILED ${join(dir, "r.json")}: an error outside the tests: TypeError: x is undefined`,
    `FAILED ${join(dir, "s.tap")}: not ok 2 two breaks`,
    "3 passed, 7 failed, 3 skipped",
  ]);
});
