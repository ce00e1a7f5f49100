/** Once per integration run: a stale marker is dropped first; the lab a test file started is brought down last. */
import { rmSync } from "node:fs";
import { labDownIfStartedByTests, STARTED_MARKER } from "./lab/openstack";

export function setup(): void {
  // A marker left by a run that was killed: the lab running now was not started by this run.
  rmSync(STARTED_MARKER, { force: true });
}

export function teardown(): void {
  labDownIfStartedByTests();
}
