/**
 * The Keystone client against a Keystone/Nova stand-in on loopback (test/unit/helpers/fake-nova):
 * the token and its catalog's endpoints by region, `auth_url` with or without /v3, and a refusal
 * that names the user and project, never the password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keystoneSession, keystoneV3 } from "../../../clients/openstack";
import { FAKE_USER, fakeCredentials, startFakeNova, type FakeNova } from "../helpers/fake-nova";

let nova: FakeNova;
const creds = (extra: Record<string, string> = {}) => fakeCredentials(nova, extra);

beforeAll(async () => {
  nova = await startFakeNova({ ...FAKE_USER, admin: false });
});
afterAll(async () => {
  await nova.close();
});

describe("keystoneSession", () => {
  it("a token and the public endpoint of a service type in the VIM's region, without a trailing slash", async () => {
    const s = await keystoneSession(creds({ region: "RegionOne" }));
    expect(s.token).not.toBe("");
    expect(s.endpoint("compute")).toBe(`${nova.authUrl.replace(/\/identity$/, "")}/compute/v2.1`);
    expect(s.endpoint("orchestration")).toBeUndefined();
    expect((await keystoneSession(creds({ region: "RegionTwo" }))).endpoint("compute")).toBeUndefined();
    expect(nova.requests[0]).toBe("POST /identity/v3/auth/tokens");
  });

  it("a wrong password: an error naming the URL, user and project, never the password", async () => {
    const e = await keystoneSession(creds({ password: "wrong-s3cret" })).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(e).toMatch(/^Keystone http:\/\/127\.0\.0\.1:\d+\/identity\/v3\/auth\/tokens refused user 'nfv_user' for project 'nfv': HTTP 401/);
    expect(e).not.toContain("s3cret");
  });

  it("keystoneV3 appends /v3 once", () => {
    expect([keystoneV3("http://k/identity"), keystoneV3("http://k/identity/v3"), keystoneV3("http://k:5000/v3/")]).toEqual([
      "http://k/identity/v3",
      "http://k/identity/v3",
      "http://k:5000/v3",
    ]);
  });
});
