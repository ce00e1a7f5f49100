// Entry point named by Pulumi.yaml (`main`); the program itself is in program.ts. Pulumi awaits
// the exported function and turns the fields of its result into stack outputs.
import { deployStack } from "./program";

export = deployStack;
