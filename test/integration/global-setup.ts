/**
 * Once per integration run: a stale marker is dropped first; the lab a test file started is brought
 * down last. test/run-all runs the files in phases with NFV_LAB_KEEP_UP=1: the lab then stays up
 * between the phases, and run-all brings it down after the last one.
 */
import { rmSync } from "node:fs";
import { labDownIfStartedByTests, STARTED_MARKER } from "./lab/openstack";

const keepUp = process.env.NFV_LAB_KEEP_UP === "1";

export function setup(): void {
  // A marker left by a run that was killed: the lab running now was not started by this run.
  if (!keepUp) rmSync(STARTED_MARKER, { force: true });
}

export function teardown(): void {
  if (!keepUp) labDownIfStartedByTests();
}
