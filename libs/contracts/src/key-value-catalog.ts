import { z } from 'zod';
import { runtimeProfileSchema } from './runtime-profile.schema';

// Plain data, like STREAM_CATALOG: libs/messaging provisions these JetStream key-value buckets.

export interface KeyValueBucketDefinition {
  /** Logical bucket name (the namespace is applied by libs/messaging). */
  name: string;
  description: string;
  storage: 'file' | 'memory';
  /** Values kept per key; 1 is enough for a current-state snapshot. */
  history: number;
  maxValueBytes: number;
  /** Recommended for a cluster; single-node setups clamp to 1. */
  replicas: number;
}

export const KEY_VALUE_CATALOG = {
  RUNTIME_PROFILES: {
    name: 'runtime-profiles',
    // One key per workspace (its id): the whole list of the workspace's enabled profiles, so a
    // daemon that watches its workspace's key always holds a complete, current snapshot.
    description: "Each workspace's runtime profiles, keyed by workspace id: written by the gateway, read by that workspace's daemons.",
    storage: 'file',
    history: 1,
    maxValueBytes: 1024 * 1024,
    replicas: 3,
  },
} as const satisfies Record<string, KeyValueBucketDefinition>;

/** The value under a workspace's key in `runtime-profiles`. */
export const workspaceRuntimeProfilesSchema = z.object({
  schemaVersion: z.literal(1),
  workspaceId: z.string().min(1),
  profiles: z.array(runtimeProfileSchema).max(200),
});
export type WorkspaceRuntimeProfiles = z.infer<typeof workspaceRuntimeProfilesSchema>;
