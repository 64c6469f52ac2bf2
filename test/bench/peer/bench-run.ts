/**
 * The frame every bench script runs in: cleanup steps undone in reverse order at the
 * end, on failure and on Ctrl-C alike; timestamped progress lines; a failure printed
 * in one line and turned into exit status 1.
 */
export interface BenchRun {
  /** Undo steps, run last first. */
  cleanups: (() => Promise<unknown>)[];
  /** Prints a progress line, timed from the process's start. */
  step(what: string): void;
  /** Runs the cleanups now (each once: the list empties). */
  cleanUp(): Promise<void>;
  /** Runs `main`, then the cleanups. */
  run(main: () => Promise<void>): Promise<void>;
}

export function createBenchRun(name: string): BenchRun {
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    for (const undo of cleanups.splice(0).reverse())
      await undo().catch((error: unknown) => console.error(`cleanup: ${String(error)}`));
  };
  process.once("SIGINT", () => void cleanUp().finally(() => process.exit(130)));
  return {
    cleanups,
    cleanUp,
    step: (what) => console.log(`[${(performance.now() / 1000).toFixed(1)} s] ${what}`),
    async run(main) {
      try {
        await main();
      } catch (error) {
        console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      } finally {
        await cleanUp();
      }
    },
  };
}
