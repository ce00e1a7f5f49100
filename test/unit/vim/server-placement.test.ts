/**
 * fetchServerPlacement against a Keystone/Nova stand-in on loopback: the host for an admin, the
 * hostId hash for a member, the zone, `auth_url` with or without /v3, and errors that name what
 * failed without the password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchServerPlacement } from "../../../components/vim/server-placement";
import { FAKE_USER, fakeCredentials, startFakeNova, type FakeNova } from "../helpers/fake-nova";

let admin: FakeNova;
let member: FakeNova;
const creds = fakeCredentials;

beforeAll(async () => {
  admin = await startFakeNova({ ...FAKE_USER, admin: true });
  member = await startFakeNova({ ...FAKE_USER, admin: false });
  for (const n of [admin, member]) {
    n.servers["srv-a"] = { host: "compute1", hostId: "3f1c".repeat(14), zone: "az-1" };
    n.servers["srv-b"] = { host: "compute2", hostId: "9e2d".repeat(14) };
  }
});
afterAll(async () => {
  await admin.close();
  await member.close();
});

describe("fetchServerPlacement", () => {
  it("an admin sees the compute host; the zone when Nova reports one", async () => {
    expect(await fetchServerPlacement(creds(admin), "srv-a")).toEqual({ host: "compute1", hostIsHash: false, zone: "az-1" });
    expect(await fetchServerPlacement(creds(admin), "srv-b")).toEqual({ host: "compute2", hostIsHash: false });
    expect(admin.requests.slice(0, 2)).toEqual(["POST /identity/v3/auth/tokens", "GET /compute/v2.1/servers/srv-a"]);
  });

  it("a member gets Nova's hostId instead (equal exactly for servers on one host)", async () => {
    expect(await fetchServerPlacement(creds(member, { authUrl: `${member.authUrl}/v3/` }), "srv-a")).toEqual({
      host: "3f1c".repeat(14),
      hostIsHash: true,
      zone: "az-1",
    });
  });

  it("a wrong password, an unknown server, a region without compute: errors naming what failed, never the password", async () => {
    const errors: string[] = [];
    for (const [c, id] of [
      [creds(admin, { password: "wrong" }), "srv-a"],
      [creds(admin), "srv-gone"],
      [creds(admin, { region: "RegionTwo" }), "srv-a"],
    ] as const) {
      errors.push(
        await fetchServerPlacement(c, id).then(
          () => "no error",
          (e: Error) => e.message,
        ),
      );
    }
    expect(errors[0]).toMatch(
      /^Keystone http:\/\/127\.0\.0\.1:\d+\/identity\/v3\/auth\/tokens refused user 'nfv_user' for project 'nfv': HTTP 401 \(The request you have made requires authentication\.\)$/,
    );
    expect(errors[1]).toMatch(/^Nova http:\/\/127\.0\.0\.1:\d+\/compute\/v2\.1: server srv-gone: HTTP 404 \(Instance could not be found\.\)$/);
    expect(errors[2]).toContain("no public compute endpoint in region RegionTwo");
    for (const e of errors) expect(e).not.toContain("s3cret");
  });
});
