/**
 * The subcommands of `nfv`. Each lives in its own module under `commands/` and is loaded only when
 * it runs, so `nfv --help` and every command start without loading the others. To add one (heal,
 * scale, preview, …), write `commands/<name>.ts` exporting `command: Command` and list it here.
 */
import type { Command } from "./io";

export interface CommandEntry {
  summary: string;
  /** Dynamic import: compiled to a `require` that runs only when the command does. */
  load(): Promise<Command>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  validate: { summary: "check a VNF package and print every problem", load: async () => (await import("./commands/validate")).command },
  translate: { summary: "print the VNF model and component graph of a package", load: async () => (await import("./commands/translate")).command },
  preview: { summary: "preview a stack and write a PR-comment Markdown summary", load: async () => (await import("./commands/preview")).command },
  scale: { summary: "scale a VNF by a SOL001 aspect (stack config, then up)", load: async () => (await import("./commands/scale")).command },
  heal: { summary: "heal VNFCs or a whole VNF by targeted replace", load: async () => (await import("./commands/heal")).command },
  terminate: {
    summary: "terminate a network service or a VNF (stack config, then up)",
    load: async () => (await import("./commands/terminate")).command,
  },
  rollback: {
    summary: "roll back the last failed operation: config as before it, then up",
    load: async () => (await import("./commands/rollback")).command,
  },
  serve: {
    summary: "auto-heal and auto-scale from Alertmanager webhooks (Tacker's Prometheus plugin)",
    load: async () => (await import("./commands/serve")).command,
  },
  "change-ext-conn": {
    summary: "change a VM VNF's external connectivity (Tacker's request file, then up)",
    load: async () => (await import("./commands/change-ext-conn")).command,
  },
  "change-vnfpkg": {
    summary: "change a VNF's package: CNF rolling update, VM VNFs VNFC by VNFC (Tacker's request file, then up)",
    load: async () => (await import("./commands/change-vnfpkg")).command,
  },
};
