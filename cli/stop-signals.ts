/**
 * SIGTERM and SIGINT for a long-running command (`nfv serve`): the first asks it to stop, the later
 * ones are reported and otherwise ignored, so that the operation running ends (SIGKILL stops it now).
 *
 * The listeners stay until `dispose`: with none left, Node's default for the signal ends the
 * process, so a `once` listener let the second signal kill serve and its pulumi child mid-operation.
 * (Until nfv ran the pulumi CLI itself, the Automation API's execa loaded signal-exit, whose own
 * listener re-raised the signal as soon as it found no listener but its own: seen in CI on
 * 2026-12-04, exit by signal.)
 */
const SIGNALS = ["SIGTERM", "SIGINT"] as const;

export class StopSignals {
  /** The first of the signals received. */
  readonly first: Promise<NodeJS.Signals>;
  private readonly listener: (signal: NodeJS.Signals) => void;

  constructor(onRepeat: (signal: NodeJS.Signals) => void) {
    let received: NodeJS.Signals | undefined;
    let resolveFirst!: (signal: NodeJS.Signals) => void;
    this.first = new Promise((resolve) => (resolveFirst = resolve));
    this.listener = (signal) => {
      if (received) return onRepeat(signal);
      received = signal;
      resolveFirst(signal);
    };
    for (const s of SIGNALS) process.on(s, this.listener);
  }

  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.listener);
  }
}
