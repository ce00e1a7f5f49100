/**
 * SIGTERM and SIGINT for a long-running command (`nfv serve`): the first asks it to stop, the later
 * ones are reported and otherwise ignored, so that the operation running ends (SIGKILL stops it now).
 *
 * The listeners stay until `dispose`. Why not `process.once`: the Automation API runs the pulumi
 * CLI through execa, which loads signal-exit, whose own signal listener re-raises the signal when
 * it finds no listener but its own. A `once` listener is gone by the time that check runs, so a
 * SIGTERM that arrived while any pulumi command ran (an operation's `up`, or the config read of an
 * alert) killed serve and its pulumi child mid-operation (seen in CI on 2026-12-04: exit by signal).
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
