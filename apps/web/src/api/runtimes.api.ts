import { api } from './http-client';

// Runtimes the daemons registered, and the daemons themselves (services/gateway/src/workspace/
// runtimes/runtime.schemas.ts, workspace/daemons/daemon.schemas.ts).

export type RuntimeStatus = 'online' | 'offline';

export interface Runtime {
  readonly runtimeId: string;
  readonly daemonId: string;
  /** The CLI identity, e.g. `claude-code`. */
  readonly identity: string;
  readonly provider: string | null;
  readonly version: string;
  readonly protocolFamily: string;
  readonly commandName: string;
  readonly profileId: string | null;
  readonly capacity: number;
  /** Model ids the CLI listed at registration; empty when it cannot list them. */
  readonly models: readonly string[];
  readonly status: RuntimeStatus;
  readonly offlineReason: 'heartbeat_missed' | 'daemon_shutdown' | 'not_detected' | null;
  readonly offlineSince: string | null;
  readonly registeredAt: string;
  readonly lastHeartbeatAt: string | null;
  readonly lastSeenAt: string;
}

export interface Daemon {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly userPublicKey: string;
  readonly enrolledAt: string;
  readonly revokedAt: string | null;
}

/** Returned once: the gateway keeps only the token's hash. */
export interface DaemonEnrollment {
  readonly id: string;
  readonly workspaceId: string;
  readonly token: string;
  readonly expiresAt: string;
}

export const runtimeKeys = {
  all: ['runtimes'] as const,
  list: (status: RuntimeStatus | 'all') => ['runtimes', 'list', status] as const,
  daemons: ['daemons'] as const,
};

export async function listRuntimes(status: RuntimeStatus | 'all' = 'all'): Promise<Runtime[]> {
  const answer = await api.get<{ runtimes: Runtime[] }>(`/api/runtimes${status === 'all' ? '' : `?status=${status}`}`);
  return answer.runtimes;
}

export async function listDaemons(): Promise<Daemon[]> {
  const answer = await api.get<{ daemons: Daemon[] }>('/api/daemons');
  return answer.daemons;
}

export function createDaemonEnrollment(): Promise<DaemonEnrollment> {
  return api.post<DaemonEnrollment>('/api/daemon-enrollments');
}

export function revokeDaemon(daemonId: string): Promise<Daemon> {
  return api.delete<Daemon>(`/api/daemons/${encodeURIComponent(daemonId)}`);
}

/** What to run on the daemon's machine: enrollment is a one-time exchange of this token for the daemon's credentials. */
export function enrollmentCommand(token: string, origin: string = location.origin): string {
  return `npm run daemon -- enroll --gateway ${origin} --token ${token}`;
}

/** How a runtime reads in a list: its identity, and its provider when it names one. */
export function runtimeLabel(runtime: Runtime): string {
  return `${runtime.identity}${runtime.provider ? ` (${runtime.provider})` : ''} · ${runtime.status}`;
}
