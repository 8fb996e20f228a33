import path from 'node:path';

export interface ServiceDefinition {
  readonly name: string;
  /** Compiled entry point, relative to the repository's dist/ folder. */
  readonly entry: string;
  readonly needsDatabase: boolean;
}

/** Every process `npm start` runs, in start order (the gateway last: it fronts the others). */
export const LOCAL_SERVICES: readonly ServiceDefinition[] = [
  { name: 'queue', entry: 'services/queue/src/main.js', needsDatabase: true },
  { name: 'transcript', entry: 'services/transcript/src/main.js', needsDatabase: true },
  { name: 'session-resume', entry: 'services/session-resume/src/main.js', needsDatabase: true },
  { name: 'daemon', entry: 'services/daemon/src/main.js', needsDatabase: false },
  { name: 'gateway', entry: 'services/gateway/src/main.js', needsDatabase: true },
];

export function entryPath(distDirectory: string, service: ServiceDefinition): string {
  return path.join(distDirectory, service.entry);
}
