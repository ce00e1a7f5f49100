/**
 * The SDK's debug messages of RPC responses lose the response (components/sdk-debug-log.ts): the message
 * the canary scan found in the engine's event log, with a credential step's token in plain text,
 * comes out without it; other messages are unchanged; the replacement is on the module object the
 * SDK's runtime logs through.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { redactSdkDebugLog, withoutRpcResponse } from "../../../components/sdk-debug-log";

const TOKEN = "c6rp1e.gmpjgdrs4umffhrp";
// As @pulumi/pulumi 3.248.0 wrote it (the protobuf response's toString), shortened.
const SEEN = `RegisterResource RPC finished: resource:join-credentials[command:local:Command]; err: null, resp: urn:pulumi:it-creds-ok::nfv-credential-step::command:local:Command::join-credentials,join-credentialse056d3f5,create,,,out="$(sudo -n /bin/bash /x/join-credentials.sh)",stdout,,,,,4dabf18193072939515e22adb298388d,,,1b47061264138c4ac30d75fd1eb44270,value,,,token=${TOKEN}\\nca_cert_hash=sha256:e7,,\n`;

describe("withoutRpcResponse", () => {
  it("cuts the response off every RPC-finished message, keeping what was asked and the error", () => {
    const out = withoutRpcResponse(SEEN);
    expect(out).toBe(
      "RegisterResource RPC finished: resource:join-credentials[command:local:Command]; err: null, resp: (left out: it holds secrets in plain text)",
    );
    expect(out).not.toContain(TOKEN);
    for (const kind of ["RegisterResourceOutputs", "ReadResource", "Invoke", "Call", "getResource Invoke"]) {
      expect(withoutRpcResponse(`${kind} RPC finished: tok=x; err: null, resp: password,,,s3cret`)).not.toContain("s3cret");
    }
  });

  it("leaves every other message as it is", () => {
    for (const m of ["Registering resource: t=command:local:Command, name=x", "RegisterResource RPC prepared: t=x", "resp: not an RPC message"])
      expect(withoutRpcResponse(m)).toBe(m);
  });
});

describe("redactSdkDebugLog", () => {
  it("replaces debug on the module the SDK's runtime logs through; once, however often called", async () => {
    const logModule = (await import("@pulumi/pulumi/log")) as unknown as { debug: (m: string) => Promise<void> };
    // The runtime (runtime/resource.js) requires "../log": the same module object as pulumi.log.
    const { createRequire } = await import("node:module");
    expect(createRequire(__filename)("@pulumi/pulumi/log")).toBe(pulumi.log);
    const seen: string[] = [];
    const saved = pulumi.log.debug;
    (pulumi.log as unknown as { debug: (m: string) => Promise<void> }).debug = async (m: string) => {
      seen.push(m);
    };
    try {
      redactSdkDebugLog();
      redactSdkDebugLog();
      await logModule.debug(SEEN);
      await pulumi.log.debug("plain message");
      expect(seen).toEqual([
        "RegisterResource RPC finished: resource:join-credentials[command:local:Command]; err: null, resp: (left out: it holds secrets in plain text)",
        "plain message",
      ]);
    } finally {
      (pulumi.log as unknown as { debug: typeof saved }).debug = saved;
    }
  });
});
