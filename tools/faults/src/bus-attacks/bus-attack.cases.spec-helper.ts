import WebSocket from 'ws';
import { subjects, uuidv7 } from '@switchyard/contracts';
import { curveKeyHolder, publish, requestReply, sendCommand, type BusIdentity, type MessagingConnection } from '@switchyard/messaging';
import { flushConnection, publishRawNotice } from '@switchyard/messaging/testing';
import { claimPayload, runtimeHeartbeat, runtimeRegistration } from './attack-payloads';
import { ADMIN_TOKEN, until, type AttackSystem } from './attack-system.spec-helper';
import { connectAttacker, enrollDaemon, type Attacker } from './attackers.spec-helper';
import { consumerPassed, deadLetters } from './observations.spec-helper';
import type { PoisonTarget } from './poison-subjects';

/** The two bodies every subscribed subject gets: not JSON at all, and nothing. */
export const POISON_BODIES = ['not json {', ''] as const;

export interface PoisonStormOutcome {
  /** Publishes the server refused: the storm must use identities allowed on each subject. */
  readonly refusedPublishes: string[];
  /** How each command subject answered an empty body and a JSON body that is no envelope. */
  readonly commandAnswers: Array<{ readonly subject: string; readonly body: string; readonly code: string }>;
  /** `<consumer> <- <subject>` pairs whose poison never reached DEAD_LETTERS. */
  readonly missingDeadLetters: string[];
  /** Core-only subjects whose listener logged nothing about the poison. */
  readonly unlogged: string[];
  /** Whether the live workspace feed a client held through the storm is still open. */
  readonly liveFeedOpen: boolean;
}

/** A client of the gateway's live workspace feed: the gateway decodes workspace notices only while one listens. */
async function listenToWorkspace(gatewayUrl: string): Promise<{ isOpen(): boolean; close(): void }> {
  const socket = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/api/live`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const frames: Array<{ type?: string }> = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as { type?: string }));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe_workspace' }));
  await until(() => frames.some((frame) => frame.type === 'subscribed_workspace'), { description: 'the live workspace subscription' });
  return { isOpen: () => socket.readyState === WebSocket.OPEN, close: () => socket.close() };
}

function sameIdentity(left: BusIdentity, right: BusIdentity): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Publishes both poison bodies on every target (core NATS, as any client may; stream subjects are
 * stored as well), each with the identity the target names, and requests every command subject
 * with an empty body and a non-envelope. Then waits until every durable consumer that reads a
 * target has dead-lettered both bodies, and reads the core listeners' logs for a word on the rest.
 */
export async function runPoisonStorm(options: { readonly attack: AttackSystem; readonly targets: readonly PoisonTarget[]; readonly publishers: readonly Attacker[] }): Promise<PoisonStormOutcome> {
  const { attack, targets, publishers } = options;
  const connectionOf = (identity: BusIdentity): MessagingConnection => publishers.find((attacker) => sameIdentity(attacker.identity, identity))?.connection ?? attack.system.connection;
  const refusalsBefore = publishers.map((attacker) => attacker.violations.seen.length);
  const liveFeed = await listenToWorkspace(attack.system.gatewayUrl);
  const commandAnswers: Array<{ subject: string; body: string; code: string }> = [];
  for (const target of targets) {
    const connection = connectionOf(target.publisher);
    for (const body of POISON_BODIES) publishRawNotice(connection, target.subject, body);
    if (!target.isCommand) continue;
    for (const data of [undefined, 'not an envelope']) {
      const code = await requestReply(connection, { subject: target.subject, data, requestId: uuidv7(), timeoutMs: 5_000 }).then(
        (reply) => (reply.ok ? 'ok' : reply.error.code),
        (error: unknown) => `no answer: ${String(error)}`,
      );
      commandAnswers.push({ subject: target.subject, body: data === undefined ? '(empty)' : JSON.stringify(data), code });
    }
  }
  await Promise.all([attack.system.connection, ...publishers.map((attacker) => attacker.connection)].map((connection) => flushConnection(connection)));
  const refusedPublishes = publishers.flatMap((attacker, index) => attacker.violations.seen.slice(refusalsBefore[index]).map((text) => `${attacker.label}: ${text}`));
  const missingDeadLetters = await awaitDeadLetters(attack, targets);
  const liveFeedOpen = liveFeed.isOpen();
  liveFeed.close();
  return { refusedPublishes, commandAnswers, missingDeadLetters, unlogged: unloggedTargets(attack, targets), liveFeedOpen };
}

async function awaitDeadLetters(attack: AttackSystem, targets: readonly PoisonTarget[]): Promise<string[]> {
  const expected = targets.flatMap((target) => target.consumers.map((consumer) => ({ subject: target.subject, consumer })));
  const missing = async (): Promise<string[]> => {
    const letters = await deadLetters(attack.system.connection);
    return expected
      .filter(({ subject, consumer }) => POISON_BODIES.some((body) => !letters.some((letter) => letter.subject === subject && letter.consumer === consumer && letter.text === body)))
      .map(({ subject, consumer }) => `${consumer} <- ${subject}`);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const left = await missing();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What a core listener writes when it skips a poison message, by listener. */
function loggedPoison(target: PoisonTarget, line: Record<string, unknown>): boolean {
  const text = JSON.stringify(line);
  switch (target.coreListener) {
    case 'gateway':
      return line['subject'] === target.subject && /malformed notice ignored/.test(text);
    case 'daemon':
      // A nudge or a cancel carries nothing in its body: only an unknown kind is worth a word.
      return !target.subject.includes('.unknown_kind.') || (line['subject'] === target.subject && /daemon_notice_unknown/.test(text));
    case 'queue':
    case 'session-resume':
      return /not valid JSON|without reply subject/.test(text) && text.includes(target.subject.split('.').slice(0, -1).join('.'));
    case undefined:
      return true;
  }
}

function unloggedTargets(attack: AttackSystem, targets: readonly PoisonTarget[]): string[] {
  return targets
    .filter((target) => target.coreListener !== undefined && target.consumers.length === 0)
    .filter((target) => !attack.logLines(target.coreListener!).some((line) => loggedPoison(target, line)))
    .map((target) => `${target.coreListener} <- ${target.subject}`);
}

export interface SquatOutcome {
  readonly ownerId: string;
  readonly runtimeId: string;
  /** Tasks the squatter's claim got (there must be none), and whether the agent's secret came with them (in clear, or sealed to the squatter's own key). */
  readonly claimedBySquatter: string[];
  readonly secretLeaked: boolean;
  readonly presenceHolder: string | undefined;
  readonly taskStatus: string | undefined;
}

/**
 * Daemon C enrolls; before C's first heartbeat the squatter heartbeats C's predictable runtime id
 * (`<daemonId>-claude-code`). C then registers and heartbeats it, the workspace makes an agent on
 * it (with a secret in its env) and a task; the squatter claims naming that runtime.
 */
export async function squatRuntimeThenClaim(options: {
  readonly attack: AttackSystem;
  readonly squatter: Attacker;
  /** The squatter's curve seed: it opens whatever the queue sealed to the key the squatter claimed with. */
  readonly squatterCurveSeed: string;
  readonly agentEnv: Readonly<Record<string, string>>;
  readonly opened: Attacker[];
}): Promise<SquatOutcome> {
  const { attack, squatter } = options;
  const squatterId = squatter.daemonId ?? '';
  const enrolled = await enrollDaemon(attack.api, 'squat-owner');
  const owner = await connectAttacker({
    label: 'daemon C',
    natsUrl: attack.natsUrl,
    namespace: attack.system.namespace,
    identity: { kind: 'daemon', daemonId: enrolled.daemonId },
    creds: enrolled.creds,
    sealingKey: enrolled.curvePublicKey,
  });
  options.opened.push(owner);
  const runtimeId = `${enrolled.daemonId}-claude-code`;
  const observer = attack.system.connection;
  const publishEvent = async (attacker: Attacker, event: { type: 'runtime.heartbeat' | 'runtime.registered'; eventId: string }): Promise<number> =>
    (await publish(attacker.connection, { subject: subjects.runtimeEvent({ type: event.type, runtimeId, publisher: attacker.daemonId ?? '' }), data: event, messageId: event.eventId, retry: { maxAttempts: 1 } })).seq;

  const squatted = await publishEvent(squatter, runtimeHeartbeat({ daemonId: squatterId, runtimeId }));
  await consumerPassed(observer, { stream: 'RUNTIME_EVENTS', consumer: 'queue-runtime-presence', seq: squatted });
  await publishEvent(owner, runtimeRegistration({ daemonId: enrolled.daemonId, workspaceId: enrolled.workspaceId, runtimeId }));
  const owned = await publishEvent(owner, runtimeHeartbeat({ daemonId: enrolled.daemonId, runtimeId }));
  await consumerPassed(observer, { stream: 'RUNTIME_EVENTS', consumer: 'queue-runtime-presence', seq: owned });
  await consumerPassed(observer, { stream: 'RUNTIME_EVENTS', consumer: 'gateway-runtime-view', seq: owned });
  await until(async () => ((await attack.api('GET', `/api/runtimes/${runtimeId}`)).body as { daemonId?: string } | undefined)?.daemonId === enrolled.daemonId, {
    description: `runtime ${runtimeId} in the owner's view`,
  });

  const agent = await attack.api('POST', '/api/agents', { name: 'Squatted runtime agent', runtimeId, env: options.agentEnv });
  if (agent.status !== 201) throw new Error(`agent on ${runtimeId} not created: ${agent.status} ${JSON.stringify(agent.body)}`);
  const task = await attack.api('POST', '/api/tasks', { agentId: (agent.body as { id: string }).id, prompt: 'A task of the owner’s runtime [[scenario:text]]' });
  if (task.status !== 201) throw new Error(`task on ${runtimeId} not created: ${task.status} ${JSON.stringify(task.body)}`);
  const taskId = (task.body as { taskId: string }).taskId;

  const claim = await sendCommand(squatter.connection, { command: 'task.claim', payload: claimPayload({ daemonId: squatterId, runtimeIds: [runtimeId], sealingKey: squatter.sealingKey ?? '' }), sender: squatterId });
  const claimedTasks = claim.ok ? claim.result.tasks : [];
  const openedSecrets = claimedTasks.map((claimedTask) => {
    const sealed = (claimedTask as { sealedSecrets?: string | null }).sealedSecrets;
    return sealed ? curveKeyHolder(options.squatterCurveSeed).open(sealed) : '';
  });
  const readable = `${JSON.stringify(claim)}${openedSecrets.join('')}`;
  const [presence] = await attack.query<{ daemon_id: string }>('select daemon_id from runtime_presence where runtime_id = $1', [runtimeId]);
  const [queued] = await attack.query<{ status: string }>('select status from agent_task_queue where task_id = $1', [taskId]);
  // Leave nothing for later cases (a sweep or a retry would write while they count rows): a task the
  // squatter got is ended by it, with the lease token it was given; one still queued is cancelled.
  for (const claimedTask of claimedTasks) {
    await sendCommand(squatter.connection, {
      command: 'task.fail',
      payload: { taskId: claimedTask.taskId, attempt: claimedTask.attempt, daemonId: squatterId, leaseToken: claimedTask.leaseToken, reason: 'agent_error', message: 'squat cleanup', sessionId: null, detail: null, durationMs: null, repositories: [] },
      sender: squatterId,
    });
  }
  if (claimedTasks.length === 0) await attack.api('POST', `/api/tasks/${taskId}/cancel`, {});
  await until(async () => ['completed', 'failed', 'cancelled'].includes((await attack.query<{ status: string }>('select status from agent_task_queue where task_id = $1', [taskId]))[0]?.status ?? ''), {
    description: `the owner’s task ${taskId} ended`,
  });
  return {
    ownerId: enrolled.daemonId,
    runtimeId,
    claimedBySquatter: claimedTasks.map((claimedTask) => claimedTask.taskId),
    secretLeaked: Object.values(options.agentEnv).some((secret) => readable.includes(secret)),
    presenceHolder: presence?.daemon_id,
    taskStatus: queued?.status,
  };
}
