// Entry point named by Pulumi.yaml (`main`); the program itself is in program.ts.
import { deployStack } from "./program";

const outputs = deployStack();

/** Tacker VIM records of every registered VIM, credentials masked. */
export const vims = outputs.vims;
