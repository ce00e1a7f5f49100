/**
 * @pulumi/pulumi (3.248.0) logs the response of every resource monitor RPC at debug level:
 * `RegisterResource RPC finished: …; err: …, resp: <the response>`, and likewise for
 * RegisterResourceOutputs, ReadResource, Invoke and Call. The response is the resource's inputs and
 * outputs with every secret in plain text (a credential step's stdout, an SSH key, a stdin). The
 * engine writes debug messages into its event log whatever the verbosity (pulumi/pulumi#17101): the
 * `--event-log` file, and the events the Automation API hands to `onEvent` (`nfv preview` reads
 * them). The canary scan of the integration tests found the join token and certificate key of a
 * credential step there. This cuts the response off those messages; the rest of each stays.
 * pulumi-nfv's entry (index.ts) applies it on import, so that a program using the components is
 * covered as the stack program is (the canary scan of examples/vm-vnf-openstack found the VIM's
 * password in its event log before it did).
 */
import * as pulumi from "@pulumi/pulumi";

const RPC_FINISHED = /^(?:getResource Invoke|ReadResource|RegisterResource|RegisterResourceOutputs|Invoke|Call) RPC finished: /;
const RESPONSE = ", resp: ";

/** `msg` without the RPC response it ends with, when it is one of the SDK's "RPC finished" messages. */
export function withoutRpcResponse(msg: string): string {
  if (!RPC_FINISHED.test(msg)) return msg;
  const i = msg.indexOf(RESPONSE);
  return i < 0 ? msg : `${msg.slice(0, i)}, resp: (left out: it holds secrets in plain text)`;
}

type Debug = typeof pulumi.log.debug;
const MARK = Symbol.for("pulumi-nfv.sdk-debug-log");

/**
 * Replaces `pulumi.log.debug`, which the SDK's runtime calls through the same module object
 * (`require("@pulumi/pulumi/log")`), by one that drops the responses first. Idempotent.
 */
export function redactSdkDebugLog(): void {
  const log = pulumi.log as unknown as { debug: Debug & { [MARK]?: true } };
  if (log.debug[MARK]) return;
  const original = log.debug;
  const redacted: Debug & { [MARK]?: true } = (msg, resource, streamId, ephemeral) => original(withoutRpcResponse(msg), resource, streamId, ephemeral);
  redacted[MARK] = true;
  log.debug = redacted;
}
