// Plain data, like STREAM_CATALOG: libs/messaging provisions these JetStream object stores.

export interface ObjectStoreDefinition {
  /** Logical bucket name (the namespace is applied by libs/messaging). */
  name: string;
  description: string;
  storage: 'file' | 'memory';
  maxBytes: number;
  /** Recommended for a cluster; single-node setups clamp to 1. */
  replicas: number;
}

const MEBIBYTE = 1024 * 1024;

/** Buckets every service creates at boot. None today: skills live in a bucket per workspace (below). */
export const OBJECT_STORE_CATALOG: Readonly<Record<string, ObjectStoreDefinition>> = {};

/**
 * Buckets that exist once per workspace, named `<prefix><workspaceId>`: a daemon's grant names
 * its own workspace's bucket, so it can never read another workspace's objects. The gateway
 * creates one when it first stores an object of that workspace.
 */
export const WORKSPACE_OBJECT_STORE_CATALOG = {
  SKILLS: {
    namePrefix: 'skills-',
    // Content-addressed: an object's name is its skill content hash, so objects are written once
    // and never changed; tasks created before a skill changed keep fetching the version they name.
    description: "One workspace's skill versions by content hash: written by the gateway, read by that workspace's daemons.",
    storage: 'file',
    // JetStream reserves a stream's max bytes against the server's store, once per workspace:
    // about 250 bundles of the largest size a skill may have, thousands of ordinary ones.
    maxBytes: 128 * MEBIBYTE,
    replicas: 3,
  },
} as const satisfies Record<string, Omit<ObjectStoreDefinition, 'name'> & { namePrefix: string }>;

// A workspace id becomes part of a bucket, a stream and subject tokens: nothing but a plain token.
const WORKSPACE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isWorkspaceBucketToken(workspaceId: string): boolean {
  return WORKSPACE_TOKEN_PATTERN.test(workspaceId);
}

/** The skills bucket of one workspace; throws on an id that is not a plain subject token. */
export function workspaceSkillsObjectStore(workspaceId: string): ObjectStoreDefinition {
  if (!isWorkspaceBucketToken(workspaceId)) throw new TypeError(`workspace id ${JSON.stringify(workspaceId)} cannot name a bucket: 1-64 characters of A-Z a-z 0-9 _ -`);
  const { namePrefix, ...definition } = WORKSPACE_OBJECT_STORE_CATALOG.SKILLS;
  return { ...definition, name: `${namePrefix}${workspaceId}` };
}
