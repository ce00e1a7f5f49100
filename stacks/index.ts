// Entry point named by Pulumi.yaml (`main`); the program itself is in program.ts. Pulumi awaits
// the exported function and turns the fields of its result into stack outputs.
import { deployStack, type StackOutputs } from "./program";
import { asRunError } from "./run-error";
import { redactSdkDebugLog } from "../components/sdk-debug-log";
import { skipSdkPromiseStacks } from "../components/sdk-promise-stacks";

// Before anything is registered: the SDK's debug messages would carry every secret into the event
// log, and its promise wrapper would format an unread stack trace for each of its promises.
redactSdkDebugLog();
skipSdkPromiseStacks();

export = async function program(): Promise<StackOutputs> {
  try {
    return await deployStack();
  } catch (err) {
    throw asRunError(err);
  }
};
