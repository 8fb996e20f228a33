import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DetectedRuntime, RuntimeNotDetected } from './runtime-detector';

/** What the last detection found, for `npm start`'s banner and an operator's look: no secret in it. */
export interface DetectionReportFile {
  readonly detectedAt: string;
  readonly searchPath: string;
  readonly runtimes: ReadonlyArray<{ readonly runtimeId: string; readonly identity: string; readonly version: string; readonly executablePath: string }>;
  readonly notDetected: readonly RuntimeNotDetected[];
}

export const DETECTION_REPORT_FILE = 'detection.json';

/** Writes `<home>/detection.json` whole (write, then rename), so a reader never sees half of it. */
export async function writeDetectionReport(options: {
  readonly home: string;
  readonly searchPath: string;
  readonly runtimes: readonly DetectedRuntime[];
  readonly notDetected: readonly RuntimeNotDetected[];
}): Promise<void> {
  const report: DetectionReportFile = {
    detectedAt: new Date().toISOString(),
    searchPath: options.searchPath,
    runtimes: options.runtimes.map((runtime) => ({ runtimeId: runtime.runtimeId, identity: runtime.identity.identity, version: runtime.version, executablePath: runtime.executablePath })),
    notDetected: options.notDetected,
  };
  const file = path.join(options.home, DETECTION_REPORT_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  // Owner-only like the rest of the home: it names the paths and versions of this machine's CLIs.
  await writeFile(temporary, `${JSON.stringify(report, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
