import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { parseVersion, type RuntimeIdentity } from './runtime-identities';

/** The version of a profile's command that printed none. */
export const UNKNOWN_VERSION = 'unknown';

export interface DetectedRuntime {
  readonly runtimeId: string;
  readonly identity: RuntimeIdentity;
  readonly executablePath: string;
  readonly version: string;
}

export interface RuntimeNotDetected {
  readonly identity: string;
  readonly reason: 'not_on_path' | 'version_probe_failed' | 'version_probe_timed_out' | 'version_unreadable';
  readonly detail: string;
}

export interface DetectionReport {
  readonly detected: DetectedRuntime[];
  readonly missing: RuntimeNotDetected[];
}

/** Finds an executable on a PATH string, as the shell would (first match wins). */
export async function findOnPath(commandName: string, searchPath: string): Promise<string | undefined> {
  for (const directory of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(directory, commandName);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * Looks for every identity on PATH and asks each found CLI for its version, with a timeout: a CLI
 * that hangs on `--version` is reported, not registered; so is a built-in CLI that crashes on it or
 * prints no version (a profile's command is registered with version `unknown` instead).
 */
export async function detectRuntimes(options: {
  readonly daemonId: string;
  readonly identities: readonly RuntimeIdentity[];
  readonly searchPath: string;
  readonly home: string;
  readonly probeTimeoutMs: number;
}): Promise<DetectionReport> {
  const detected: DetectedRuntime[] = [];
  const missing: RuntimeNotDetected[] = [];
  await Promise.all(
    options.identities.map(async (identity) => {
      const executablePath = await findOnPath(identity.commandName, options.searchPath);
      if (!executablePath) {
        missing.push({ identity: identity.identity, reason: 'not_on_path', detail: `${identity.commandName} is not on PATH` });
        return;
      }
      const probe = await execa(executablePath, [...identity.versionArgs], {
        env: { PATH: options.searchPath, HOME: options.home, ...identity.probeEnv },
        extendEnv: false,
        stdin: 'ignore',
        timeout: options.probeTimeoutMs,
        forceKillAfterDelay: 1_000,
        reject: false,
        all: true,
      });
      if (probe.timedOut) {
        missing.push({ identity: identity.identity, reason: 'version_probe_timed_out', detail: `no answer within ${options.probeTimeoutMs} ms` });
        return;
      }
      const version = probe.exitCode === 0 ? parseVersion(String(probe.stdout ?? '')) : undefined;
      if (!version && identity.profile) {
        // A custom command (often a wrapper script) need not print a version; it still runs.
        detected.push({ runtimeId: `${options.daemonId}-${identity.identity}`, identity, executablePath, version: UNKNOWN_VERSION });
        return;
      }
      if (probe.exitCode !== 0) {
        missing.push({ identity: identity.identity, reason: 'version_probe_failed', detail: `exit ${String(probe.exitCode)}: ${tail(String(probe.all ?? ''))}` });
        return;
      }
      if (!version) {
        missing.push({ identity: identity.identity, reason: 'version_unreadable', detail: tail(String(probe.stdout ?? '')) });
        return;
      }
      detected.push({ runtimeId: `${options.daemonId}-${identity.identity}`, identity, executablePath, version });
    }),
  );
  detected.sort((left, right) => left.runtimeId.localeCompare(right.runtimeId));
  missing.sort((left, right) => left.identity.localeCompare(right.identity));
  return { detected, missing };
}

function tail(text: string): string {
  return text.length > 500 ? `...${text.slice(-500)}` : text;
}
