// Entry point named by Pulumi.yaml (`main`); the program itself is in program.ts. Pulumi awaits
// the exported function and turns the fields of its result into stack outputs.
import { deployStack, type StackOutputs } from "./program";
import { asRunError } from "./run-error";

export = async function program(): Promise<StackOutputs> {
  try {
    return await deployStack();
  } catch (err) {
    throw asRunError(err);
  }
};
