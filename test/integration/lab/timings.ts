/**
 * Durations of a test file's operations (up, scale, heal, destroy), printed as each ends and kept
 * for the file's summary: the numbers the lab's READMEs and the issues' closing notes quote.
 */
export function timer(): { timings: Record<string, number>; timed: <T>(label: string, f: () => Promise<T> | T) => Promise<T> } {
  const timings: Record<string, number> = {};
  async function timed<T>(label: string, f: () => Promise<T> | T): Promise<T> {
    const t0 = Date.now();
    try {
      return await f();
    } finally {
      timings[label] = Math.round((Date.now() - t0) / 100) / 10;
      console.log(`timing ${label}: ${timings[label]} s`);
    }
  }
  return { timings, timed };
}
