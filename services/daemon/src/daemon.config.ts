import { z } from 'zod';
import { RESERVED_DAEMON_IDS, isReservedDaemonId } from '@switchyard/contracts';
import { natsServiceConfigSchema } from '@switchyard/service-kit';
import { CONTAINMENT_MODES } from '@switchyard/agent-adapters/wing';

const milliseconds = (defaultValue: number) => z.coerce.number().int('must be an integer').positive('must be positive').default(defaultValue);

export const daemonConfigSchema = natsServiceConfigSchema(8084).extend({
  /**
   * Who the daemon is on the bus: set from its enrolled identity (`<home>/identity`, see
   * `npm run daemon -- enroll`), or given with NATS_CREDENTIALS_FILE by whoever minted both.
   */
  DAEMON_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or - (it becomes a subject segment)')
    // It names this daemon in every subject it uses: a service's name would pass its events for that service's.
    .refine((daemonId) => !isReservedDaemonId(daemonId), `must not be one of ${RESERVED_DAEMON_IDS.join(', ')}`),
  /** The seed of the daemon's curve key (task secrets are sealed to it), from its enrolled identity. */
  DAEMON_CURVE_SEED_FILE: z.string().min(1).optional(),
  /** The workspace whose agents may use this daemon's runtimes. */
  DAEMON_WORKSPACE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or - (it becomes a subject segment)')
    .default('default'),
  /** Task slots across all runtimes of this daemon. */
  DAEMON_MAX_SLOTS: z.coerce.number().int().positive().default(20),
  DAEMON_HEARTBEAT_INTERVAL_MS: milliseconds(5_000),
  DAEMON_REDETECT_INTERVAL_MS: milliseconds(60_000),
  DAEMON_VERSION_PROBE_TIMEOUT_MS: milliseconds(10_000),
  /** Where agent CLIs are looked up; defaults to the daemon's own PATH. */
  DAEMON_PATH: z.string().optional(),
  SWITCHYARD_HOME: z.string().min(1).default('.switchyard'),
  /** JSON array of runtime profiles (custom commands driven by a known protocol family). */
  DAEMON_RUNTIME_PROFILES_FILE: z.string().min(1).optional(),
  /** A run with no CLI output and no tool call open this long is killed (`timeout`). */
  DAEMON_IDLE_TIMEOUT_MS: milliseconds(5 * 60_000),
  /** The same while a tool call is open: builds and test suites may stay quiet for long. */
  DAEMON_TOOL_BUDGET_MS: milliseconds(30 * 60_000),
  /** The longest a single run may take. */
  DAEMON_RUN_TIMEOUT_MS: milliseconds(4 * 60 * 60_000),
  /**
   * The gateway's base URL: agents call back there with their task token (`SWITCHYARD_API_URL`);
   * enrollment also goes there. Unset: agents get no API URL, so `yard issue ...` cannot reach it.
   */
  DAEMON_GATEWAY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** The built yard CLI (`main.js`) behind the agents' `yard`; default: the one beside this daemon's build. */
  DAEMON_YARD_ENTRY: z.string().min(1).optional(),
  /** How long a run waits for session-resume's answer before it starts fresh (`resume_index_unavailable`). */
  DAEMON_SESSION_RESOLVE_TIMEOUT_MS: milliseconds(2_000),
  /**
   * How a run's whole process tree is ended (on cancel, timeout, shutdown and after the CLI exits):
   * `auto` uses a cgroup v2 per run where the daemon may create one and otherwise a /proc sweep by
   * the run's marker, session and group; `cgroup` refuses to boot without cgroups; `marker` never
   * tries them. See docs/architecture/daemon.md, Process containment.
   */
  DAEMON_PROCESS_CONTAINMENT: z.enum(CONTAINMENT_MODES).default('auto'),
  /** Between work-directory GC passes (`src/work-directory-gc/`); 0 turns the GC off. */
  DAEMON_WORKDIR_GC_INTERVAL_MS: z.coerce.number().int('must be an integer').nonnegative('must be 0 (off) or positive').default(10 * 60_000),
  /** A work directory unused this long is removed, even the one a follow-up would continue in. */
  DAEMON_WORKDIR_MAX_AGE_MS: milliseconds(7 * 24 * 60 * 60_000),
  /** Past this disk usage of one agent's work directories, the least recently used unprotected ones go. */
  DAEMON_WORKDIR_MAX_BYTES_PER_AGENT: z.coerce.number().int('must be an integer').positive('must be positive').default(20 * 1024 ** 3),
});

export type DaemonConfig = z.infer<typeof daemonConfigSchema>;
