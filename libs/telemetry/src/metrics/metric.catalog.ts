/** The processes that register metrics of their own (every process also has the default process metrics). */
export type MetricOwner = 'queue' | 'transcript' | 'daemon' | 'gateway';

interface MetricDefinitionBase<Label extends string> {
  /** `switchyard_` + what + the unit (`_seconds`, `_messages`), as Prometheus names them. */
  readonly name: string;
  readonly help: string;
  /** Bounded sets only: a state, an outcome. Never an id, a name or anything a user typed. */
  readonly labelNames: readonly Label[];
  readonly owner: MetricOwner;
}

/** A value read when Prometheus scrapes (a count, a backlog), not kept between scrapes. */
export interface GaugeDefinition<Label extends string = string> extends MetricDefinitionBase<Label> {
  readonly kind: 'gauge';
}

/** Observations counted into buckets as they happen (a latency, a duration). */
export interface HistogramDefinition<Label extends string = string> extends MetricDefinitionBase<Label> {
  readonly kind: 'histogram';
  /** Upper bounds, in the unit the name says. */
  readonly buckets: readonly number[];
}

export type MetricDefinition<Label extends string = string> = GaugeDefinition<Label> | HistogramDefinition<Label>;

/** The label names of a definition, as a union (`never` without labels). */
export type LabelOf<Definition extends MetricDefinition> = Definition['labelNames'][number];

/** How a task ended, as `switchyard_task_duration_seconds` labels it: `expired` is a failure no attempt caused. */
export const TASK_OUTCOME_LABELS = ['completed', 'failed', 'cancelled', 'expired'] as const;
export type TaskOutcomeLabel = (typeof TASK_OUTCOME_LABELS)[number];

/** `switchyard_daemon_slots` by `state`: the slots running a task, and all of them. */
export const DAEMON_SLOT_STATES = ['busy', 'total'] as const;

/**
 * Every metric Switchyard registers, beside the default process metrics: the processes create
 * theirs from these definitions (`ServiceMetrics`), and the Grafana dashboard
 * (deploy/grafana/switchyard-dashboard.json) may query these names only, which its spec checks.
 */
export const SWITCHYARD_METRICS = {
  queueTasks: {
    kind: 'gauge',
    name: 'switchyard_queue_tasks',
    help: 'Tasks not ended yet, by state: one grouped count of the queue table at scrape time (every queue replica reports the same)',
    labelNames: ['state'],
    owner: 'queue',
  },
  claimLatency: {
    kind: 'histogram',
    name: 'switchyard_claim_latency_seconds',
    help: 'From the moment a task could be claimed (its enqueue or requeue, or its fire time when deferred) to its claim by a daemon',
    labelNames: [],
    // From a daemon that was waiting (milliseconds) to work that waited for a runtime (hours).
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600],
    owner: 'queue',
  },
  taskDuration: {
    kind: 'histogram',
    name: 'switchyard_task_duration_seconds',
    help: 'From a task\'s enqueue to its end, by outcome: completed, failed, cancelled, or expired (never claimed in time); a retry is a task of its own',
    labelNames: ['outcome'],
    buckets: [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600],
    owner: 'queue',
  },
  projectorLagMessages: {
    kind: 'gauge',
    name: 'switchyard_projector_lag_messages',
    help: 'Timeline messages the transcript projector has not had acknowledged yet: its durable consumer\'s pending plus in-flight messages, read from JetStream at scrape time',
    labelNames: [],
    owner: 'transcript',
  },
  projectorLagSeconds: {
    kind: 'gauge',
    name: 'switchyard_projector_lag_seconds',
    help: 'While timeline messages wait: the time since JetStream stored the newest message this projector wrote (an upper bound of the oldest waiting message\'s age); 0 when none waits',
    labelNames: [],
    owner: 'transcript',
  },
  outboxPendingMessages: {
    kind: 'gauge',
    name: 'switchyard_outbox_pending_messages',
    help: 'Timeline messages in the daemon\'s outbox that JetStream has not acknowledged yet',
    labelNames: [],
    owner: 'daemon',
  },
  daemonSlots: {
    kind: 'gauge',
    name: 'switchyard_daemon_slots',
    help: 'The daemon\'s task slots: busy (a task runs in it) and total (DAEMON_MAX_SLOTS)',
    labelNames: ['state'],
    owner: 'daemon',
  },
  liveConnections: {
    kind: 'gauge',
    name: 'switchyard_live_connections',
    help: 'Open WebSocket connections of the live API (/api/live) on this gateway',
    labelNames: [],
    owner: 'gateway',
  },
} as const satisfies Record<string, MetricDefinition>;

/** Every name above. */
export const SWITCHYARD_METRIC_NAMES: readonly string[] = Object.values(SWITCHYARD_METRICS).map((definition) => definition.name);
