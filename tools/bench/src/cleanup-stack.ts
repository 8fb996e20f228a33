/**
 * What a bench run started, undone in reverse order on success, failure or Ctrl-C. A failing step
 * does not stop the later ones; its error is collected and returned.
 */
export interface CleanupStack {
  defer(label: string, step: () => Promise<void> | void): void;
  /** Runs every step once, newest first; a second call finds nothing left to do. */
  unwind(): Promise<Array<{ readonly label: string; readonly error: unknown }>>;
}

export function createCleanupStack(): CleanupStack {
  const steps: Array<{ readonly label: string; readonly step: () => Promise<void> | void }> = [];
  return {
    defer(label, step) {
      steps.push({ label, step });
    },
    async unwind() {
      const failures: Array<{ label: string; error: unknown }> = [];
      for (let next = steps.pop(); next; next = steps.pop()) {
        try {
          await next.step();
        } catch (error) {
          failures.push({ label: next.label, error });
        }
      }
      return failures;
    },
  };
}
