/** `--preview` writes stack config and undoes it: existing values written back, new keys removed from their highest new parent. */
import { describe, expect, it } from "vitest";
import { fakeStack } from "../helpers/fake-stack";
import { applyConfigChanges } from "../../../ops/stack-state";

describe("applyConfigChanges", () => {
  it("undo writes back what existed and removes the highest new parent of each new key, once", async () => {
    const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: { scale_levels: { a: 1 } } } });
    const undo = await applyConfigChanges(stack, [
      { key: "pulumi-nfv:vnfs.hw.scale_levels.a", value: "2" },
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.requests[0]", value: "/r.json" },
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU1-0", value: "10.0.0.1" },
    ]);
    expect(calls.splice(0)).toEqual([
      "set pulumi-nfv:vnfs.hw.scale_levels.a=2 path=true",
      "set pulumi-nfv:vnfs.hw.change_ext_conn.requests[0]=/r.json path=true",
      "set pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU1-0=10.0.0.1 path=true",
    ]);
    await undo();
    expect(calls).toEqual(["remove pulumi-nfv:vnfs.hw.change_ext_conn path=true", "set pulumi-nfv:vnfs.hw.scale_levels.a=1 path=true"]);
  });

  it("a new item of an existing list is removed by its index", async () => {
    const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: { change_ext_conn: { requests: ["/a.json"] } } } });
    const undo = await applyConfigChanges(stack, [{ key: "pulumi-nfv:vnfs.hw.change_ext_conn.requests[1]", value: "/b.json" }]);
    calls.length = 0;
    await undo();
    expect(calls).toEqual(["remove pulumi-nfv:vnfs.hw.change_ext_conn.requests[1] path=true"]);
  });

  it("a removal is undone by writing the value back; removing what is not there does nothing", async () => {
    const { stack, calls } = fakeStack({ "pulumi-nfv:vnfs": { hw: { change_ext_conn: { previous_addresses: { "VDU2-1": "10.0.0.9" } } } } });
    const undo = await applyConfigChanges(stack, [
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU2-1", remove: true },
      { key: "pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU2-2", remove: true },
    ]);
    expect(calls.splice(0)).toEqual(["remove pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU2-1 path=true"]);
    await undo();
    expect(calls).toEqual(["set pulumi-nfv:vnfs.hw.change_ext_conn.previous_addresses.VDU2-1=10.0.0.9 path=true"]);
  });
});
