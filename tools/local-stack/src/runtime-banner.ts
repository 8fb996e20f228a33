/** The part of the daemon's `detection.json` the banner reads. */
export interface DetectionSummary {
  readonly runtimes: ReadonlyArray<{ readonly identity: string; readonly version: string; readonly executablePath: string }>;
  readonly notDetected: ReadonlyArray<{ readonly identity: string; readonly reason: string; readonly detail: string }>;
}

/**
 * The banner's lines about runtimes: which the daemon registered (with the executable found), which
 * known CLIs it did not find on its PATH, and which it found but could not use, with the reason. Pure.
 */
export function runtimeBannerLines(summary: DetectionSummary, howToAdd: string): string[] {
  const lines: string[] = [];
  if (summary.runtimes.length === 0) lines.push(`runtimes        none registered: no known agent CLI on the daemon's PATH. ${howToAdd}`);
  else {
    lines.push(`runtimes        ${summary.runtimes.length} registered:`);
    for (const runtime of summary.runtimes) lines.push(`                  ${runtime.identity.padEnd(14)} ${runtime.version.padEnd(10)} ${runtime.executablePath}`);
  }
  const notOnPath = summary.notDetected.filter((entry) => entry.reason === 'not_on_path').map((entry) => entry.identity);
  if (notOnPath.length > 0) lines.push(`                not on PATH (${notOnPath.length}): ${notOnPath.join(', ')}`);
  for (const entry of summary.notDetected.filter((candidate) => candidate.reason !== 'not_on_path')) {
    lines.push(`                not usable: ${entry.identity} (${entry.reason}: ${entry.detail})`);
  }
  return lines;
}
