/** A dependency a service needs before it can take traffic; `check` throws when it is not there. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Record<string, { readonly ok: boolean; readonly error?: string }>;
}

/** Runs every check concurrently, each bounded by a timeout so /readyz always answers. */
export async function runReadinessChecks(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results: Array<readonly [string, { readonly ok: boolean; readonly error?: string }]> = await Promise.all(
    checks.map(async (item) => {
      try {
        await withTimeout(item.check(), timeoutMs, `${item.name} check timed out after ${timeoutMs} ms`);
        return [item.name, { ok: true }] as const;
      } catch (error) {
        return [item.name, { ok: false, error: error instanceof Error ? error.message : String(error) }] as const;
      }
    }),
  );
  return { ready: results.every(([, result]) => result.ok), checks: Object.fromEntries(results) };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
