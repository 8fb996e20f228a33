import { runtimeIdOf } from '@switchyard/contracts';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { parseModelList } from './model-list.parser';
import { parseVersion, type RuntimeIdentity } from './runtime-identities';

/** The version of a profile's command that printed none. */
export const UNKNOWN_VERSION = 'unknown';

export interface DetectedRuntime {
  readonly runtimeId: string;
  readonly identity: RuntimeIdentity;
  readonly executablePath: string;
  readonly version: string;
  /** Model ids the CLI listed; empty when it has no model discovery or it failed. */
  readonly models: readonly string[];
}

export interface RuntimeNotDetected {
  readonly identity: string;
  readonly reason: 'not_on_path' | 'version_probe_failed' | 'version_probe_timed_out' | 'version_unreadable';
  readonly detail: string;
}

/**
 * Why a detected runtime's model list is empty or partial. `failed` and `timed_out` mean the CLI
 * gave no usable answer; `empty` and `partial` that it answered with no id, or with lines skipped.
 */
export interface ModelDiscoveryNote {
  readonly runtimeId: string;
  readonly outcome: 'failed' | 'timed_out' | 'empty' | 'partial';
  readonly detail: string;
}

export interface DetectionReport {
  readonly detected: DetectedRuntime[];
  readonly missing: RuntimeNotDetected[];
  readonly modelDiscovery: ModelDiscoveryNote[];
}

interface ProbeOptions {
  readonly searchPath: string;
  readonly home: string;
  readonly probeTimeoutMs: number;
  /** Parent of each identity's `XDG_CACHE_HOME`, the same folder its runs use. */
  readonly cacheRoot: string;
  /** Kills every probe still running (the daemon is stopping). */
  readonly signal?: AbortSignal;
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
 * prints no version (a profile's command is registered with version `unknown` instead). A runtime
 * whose identity can list its models is then asked for them; that never keeps it from registering.
 */
export async function detectRuntimes(
  options: ProbeOptions & {
    readonly daemonId: string;
    readonly identities: readonly RuntimeIdentity[];
    /** How many identities are probed at once (each probe starts a CLI); unbounded when unset. */
    readonly concurrency?: number;
  },
): Promise<DetectionReport> {
  const detected: DetectedRuntime[] = [];
  const missing: RuntimeNotDetected[] = [];
  const modelDiscovery: ModelDiscoveryNote[] = [];
  await forEachAtMost(
    options.concurrency ?? options.identities.length,
    options.identities,
    async (identity) => {
      const executablePath = await findOnPath(identity.commandName, options.searchPath);
      if (!executablePath) {
        missing.push({ identity: identity.identity, reason: 'not_on_path', detail: `${identity.commandName} is not on PATH` });
        return;
      }
      const probe = await runProbe({ executablePath, args: identity.versionArgs, identity, options });
      if (probe.timedOut) {
        missing.push({ identity: identity.identity, reason: 'version_probe_timed_out', detail: `no answer within ${options.probeTimeoutMs} ms` });
        return;
      }
      // Some CLIs (Pi) print their version on stderr.
      const parsedVersion = probe.exitCode === 0 ? (parseVersion(String(probe.stdout ?? '')) ?? parseVersion(String(probe.stderr ?? ''))) : undefined;
      // A custom command (often a wrapper script) need not print a version; it still runs.
      const version = parsedVersion ?? (identity.profile ? UNKNOWN_VERSION : undefined);
      if (!version && probe.exitCode !== 0) {
        missing.push({ identity: identity.identity, reason: 'version_probe_failed', detail: `exit ${String(probe.exitCode)}: ${tail(String(probe.all ?? ''))}` });
        return;
      }
      if (!version) {
        missing.push({ identity: identity.identity, reason: 'version_unreadable', detail: tail(String(probe.stdout ?? '')) });
        return;
      }
      const runtimeId = runtimeIdOf(options.daemonId, identity.identity);
      const discovery = identity.modelDiscovery ? await discoverModels({ executablePath, args: identity.modelDiscovery.args, identity, options }) : { models: [], note: null };
      if (discovery.note) modelDiscovery.push({ runtimeId, ...discovery.note });
      detected.push({ runtimeId, identity, executablePath, version, models: discovery.models });
    },
  );
  detected.sort((left, right) => left.runtimeId.localeCompare(right.runtimeId));
  missing.sort((left, right) => left.identity.localeCompare(right.identity));
  modelDiscovery.sort((left, right) => left.runtimeId.localeCompare(right.runtimeId));
  return { detected, missing, modelDiscovery };
}

interface ProbeRequest {
  readonly executablePath: string;
  readonly args: readonly string[];
  readonly identity: RuntimeIdentity;
  readonly options: ProbeOptions;
}

/** Runs the CLI with only PATH, a throwaway HOME and the identity's probe environment, never the daemon's own. */
function runProbe(request: ProbeRequest) {
  return execa(request.executablePath, [...request.args], {
    env: { PATH: request.options.searchPath, HOME: request.options.home, XDG_CACHE_HOME: path.join(request.options.cacheRoot, request.identity.identity), ...request.identity.probeEnv },
    extendEnv: false,
    stdin: 'ignore',
    timeout: request.options.probeTimeoutMs,
    forceKillAfterDelay: 1_000,
    ...(request.options.signal ? { cancelSignal: request.options.signal } : {}),
    reject: false,
    all: true,
  });
}

async function discoverModels(request: ProbeRequest): Promise<{ models: string[]; note: Omit<ModelDiscoveryNote, 'runtimeId'> | null }> {
  const command = [path.basename(request.executablePath), ...request.args].join(' ');
  const probe = await runProbe(request);
  if (probe.timedOut) return { models: [], note: { outcome: 'timed_out', detail: `${command}: no answer within ${request.options.probeTimeoutMs} ms` } };
  if (probe.exitCode !== 0) {
    const cause = probe.exitCode === undefined ? (probe.signal ?? probe.message) : `exit ${String(probe.exitCode)}`;
    return { models: [], note: { outcome: 'failed', detail: `${command}: ${cause}: ${tail(String(probe.all ?? ''))}` } };
  }
  const parsed = parseModelList(String(probe.stdout ?? ''));
  if (parsed.models.length === 0) {
    return { models: [], note: { outcome: 'empty', detail: `${command} listed no model id (${parsed.skippedLines} other lines): ${tail(String(probe.stdout ?? ''))}` } };
  }
  if (parsed.skippedLines > 0 || parsed.overLimit > 0) {
    return {
      models: parsed.models,
      note: { outcome: 'partial', detail: `${command}: ${parsed.skippedLines} lines were not model ids, ${parsed.overLimit} ids beyond the first ${parsed.models.length}` },
    };
  }
  return { models: parsed.models, note: null };
}

/** Runs `step` over the items with at most `limit` running at once. */
async function forEachAtMost<TItem>(limit: number, items: readonly TItem[], step: (item: TItem) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await step(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

function tail(text: string): string {
  return text.length > 500 ? `...${text.slice(-500)}` : text;
}
