import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STREAM_CATALOG, messageIds, subjects } from '@switchyard/contracts';
import { MessagingNotReadyError, connectMessaging, createBusAuthority, mintUserCredentials, requestReply, sendCommand } from '@switchyard/messaging';
import { collectNotices, consumerState, publishRawNotice, readStream } from '@switchyard/messaging/testing';
import { TEST_TOOLING, testBusAuthority, testMessagingOptions } from '@switchyard/testing';
import {
  FORGED_OUTPUT,
  FORGED_USAGE,
  LEASED_REPORTS,
  claimPayload,
  forgedCompletion,
  forgedEnqueue,
  forgedReport,
  forgedTaskMessage,
  freshRequestId,
  randomSecret,
  runtimeHeartbeat,
  runtimeOffline,
  runtimeRegistration,
} from './attack-payloads';
import { startAttackSystem, until, type AttackSystem } from './attack-system.spec-helper';
import {
  connectAsService,
  connectAttacker,
  enrollDaemon,
  nextRefusal,
  publishEvent,
  publishRefused,
  requestRefused,
  stolenCredentials,
  subscriptionRefusals,
  type Attacker,
  type EnrolledDaemon,
} from './attackers.spec-helper';
import { runPoisonStorm, squatRuntimeThenClaim } from './bus-attack.cases.spec-helper';
import { consumerPassed, deadLetters, recordedRequests, secretSightings, storedTaskMessages, tableCounts, taskFacts } from './observations.spec-helper';
import { DURABLE_CONSUMERS, poisonTargets } from './poison-subjects';
import { forgeTimelineMessage, gatedPrompt, holderMessages, holderRow, nonEmpty } from './timeline-forgery.spec-helper';

const TERMINAL = ['completed', 'failed', 'cancelled'];

/**
 * Issue 16, item 7: every attack the bus allowed before authentication, replayed against one
 * running Switchyard (queue, session-resume, transcript, gateway and an enrolled daemon "A" running
 * the real Claude Code on the mock model) on operator-mode NATS. Each case names its attack and
 * proves both the refusal and that nothing changed; at the end every process is alive and
 * healthy, a normal task completes, and no agent secret is in a stream or a table.
 */
describe('bus attacks of issue 16 against a running system', () => {
  let attack: AttackSystem;
  let namespace: string;
  let victimId: string;
  let victimRuntime: string;
  let enrolledB: EnrolledDaemon;
  /** An enrolled daemon of the same workspace: the attacker of most cases. */
  let daemonB: Attacker;
  /** Daemon A's credentials, stolen from its home, in a process that never claimed anything. */
  let thief: Attacker;
  let gateway: Attacker;
  let sessionResume: Attacker;
  let transcript: Attacker;
  let agentId: string;
  const opened: Attacker[] = [];
  const secrets = { env: randomSecret(), mcpEnv: randomSecret(), mcpHeader: randomSecret() };

  const idOf = (attacker: Attacker): string => attacker.daemonId ?? '';
  const nonQueueIdentities = (): Attacker[] => [daemonB, thief, gateway, sessionResume, transcript];
  const createTask = async (prompt: string): Promise<string> => {
    const created = await attack.api('POST', '/api/tasks', { agentId, prompt });
    if (created.status !== 201) throw new Error(`task not created: ${created.status} ${JSON.stringify(created.body)}`);
    return String(created.body.taskId);
  };
  const ended = (taskId: string): Promise<string> =>
    until(async () => (await taskFacts(attack, taskId).then((facts) => (facts && TERMINAL.includes(facts.status) ? facts.status : undefined))), {
      description: `task ${taskId} to end`,
      timeoutMs: 120_000,
    });

  beforeAll(async () => {
    attack = await startAttackSystem();
    namespace = attack.system.namespace;
    victimId = attack.victim.daemonId;
    victimRuntime = attack.victim.runtimeId;
    enrolledB = await enrollDaemon(attack.api, 'attacker-b');
    daemonB = await connectAttacker({ label: 'daemon B', natsUrl: attack.natsUrl, namespace, identity: { kind: 'daemon', daemonId: enrolledB.daemonId }, creds: enrolledB.creds, sealingKey: enrolledB.curvePublicKey });
    thief = await connectAttacker({ label: 'thief of daemon A', natsUrl: attack.natsUrl, namespace, identity: { kind: 'daemon', daemonId: victimId }, creds: stolenCredentials(attack.victim.credentialsFile) });
    gateway = await connectAsService({ natsUrl: attack.natsUrl, namespace, name: 'gateway' });
    sessionResume = await connectAsService({ natsUrl: attack.natsUrl, namespace, name: 'session-resume' });
    transcript = await connectAsService({ natsUrl: attack.natsUrl, namespace, name: 'transcript' });
    opened.push(daemonB, thief, gateway, sessionResume, transcript);
    const agent = await attack.api('POST', '/api/agents', {
      name: 'Claude',
      runtimeId: victimRuntime,
      env: { ANTHROPIC_BASE_URL: attack.system.model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret', SECRET_TOKEN: secrets.env },
      mcpServers: {
        local: { command: process.execPath, args: ['-e', 'process.exit(0)'], env: { MCP_PROBE_SECRET: secrets.mcpEnv } },
        remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${secrets.mcpHeader}` } },
      },
      // One at a time: a second task stays queued while the first runs, for a claim to try to take.
      maxConcurrentTasks: 1,
    });
    if (agent.status !== 201) throw new Error(`agent not created: ${agent.status} ${JSON.stringify(agent.body)}`);
    agentId = agent.body.id;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(opened.map((attacker) => attacker.connection.close()));
    await attack?.stop();
  }, 60_000);

  describe('connecting', () => {
    it('an unauthenticated connection to the system’s NATS is refused', async () => {
      const before = await tableCounts(attack);
      const refused = connectMessaging({ url: attack.natsUrl, name: 'anonymous', connectTimeoutMs: 2_000 });
      await expect(refused).rejects.toThrow(MessagingNotReadyError);
      await expect(refused).rejects.toThrow(/authorization/i);
      expect(await tableCounts(attack)).toEqual(before);
    });

    it('a user signed by a key the account does not trust is refused', async () => {
      const before = await tableCounts(attack);
      const stranger = createBusAuthority();
      const { creds } = await mintUserCredentials({ appAccount: testBusAuthority().appAccount, appSigner: stranger.appSigner }, { identity: TEST_TOOLING, namespace });
      await expect(connectMessaging({ url: attack.natsUrl, name: 'forged-signer', credentials: creds, connectTimeoutMs: 2_000 })).rejects.toThrow(/authorization/i);
      expect(await tableCounts(attack)).toEqual(before);
    });

    it('a revoked daemon is disconnected at once and refused when it reconnects, and registers nothing', async () => {
      const enrolled = await enrollDaemon(attack.api, 'to-be-revoked');
      const revokedDaemon = await connectAttacker({ label: 'revoked daemon', natsUrl: attack.natsUrl, namespace, identity: { kind: 'daemon', daemonId: enrolled.daemonId }, creds: enrolled.creds });
      opened.push(revokedDaemon);

      const revoked = await attack.api('DELETE', `/api/daemons/${enrolled.daemonId}`);
      expect({ status: revoked.status, revoked: typeof revoked.body.revokedAt === 'string' }).toEqual({ status: 200, revoked: true });
      const closedWith = await until(() => revokedDaemon.closedByServer(), { description: 'NATS to drop the revoked daemon' });
      expect(closedWith.message).toMatch(/authorization|revoked/i);
      await expect(
        connectMessaging({ url: attack.natsUrl, name: 'revoked-again', namespace, credentials: enrolled.creds, jetStreamAccess: 'publish', connectTimeoutMs: 2_000 }),
      ).rejects.toThrow(/authorization|revoked/i);
      const [written] = await attack.query<{ count: string }>(
        'select (select count(*) from runtime_view where daemon_id = $1) + (select count(*) from runtime_presence where daemon_id = $1) as count',
        [enrolled.daemonId],
      );
      expect(Number(written!.count)).toBe(0);
    });
  });

  describe('subscribing beyond a daemon’s grant', () => {
    it('daemon credentials subscribing to >, _INBOX.>, $JS.API.>, another daemon’s notices and other users’ inboxes get a permission violation and receive nothing', async () => {
      // Without a namespace: the subjects exactly as the server sees them.
      const raw = await connectAttacker({ label: 'daemon B (server subjects)', natsUrl: attack.natsUrl, namespace: undefined, identity: daemonB.identity, creds: enrolledB.creds });
      opened.push(raw);
      const forbidden = ['>', '_INBOX.>', '$JS.API.>', `_INBOX.${victimId}.>`, '_INBOX.queue.>', '_INBOX.gateway.>', `${namespace}.>`, `${namespace}.notify.${victimId}.>`, `${namespace}.task.>`, `${namespace}.cmd.>`];
      const collectors = [];
      for (const subject of forbidden) {
        const before = subscriptionRefusals(raw, subject);
        collectors.push({ subject, notices: await collectNotices(raw.connection, subject) });
        await expect(nextRefusal(raw, 'Subscription', subject, before)).resolves.toMatch(/Permissions Violation/);
      }
      // What they would have heard, then a marker on B's own notices: delivery keeps each
      // publisher's order, so once the marker is in, anything matching would be in too.
      const tooling = await connectMessaging({ ...(await testMessagingOptions({ name: 'bus-attacks-tooling-raw' })), url: attack.natsUrl });
      const marker = `${namespace}.notify.${idOf(daemonB)}.probe.done`;
      const control = await collectNotices(raw.connection, marker);
      for (const subject of [`_INBOX.${victimId}.probe`, '_INBOX.queue.probe', '_INBOX.gateway.probe', `${namespace}.notify.${victimId}.probe.x`, '$JS.API.INFO']) publishRawNotice(tooling, subject, 'probe');
      publishRawNotice(tooling, marker, 'done');
      await control.waitFor(1);
      await tooling.close();
      expect(collectors.map(({ subject, notices }) => ({ subject, received: notices.received.length }))).toEqual(forbidden.map((subject) => ({ subject, received: 0 })));
    });
  });

  describe('attacks on daemon A’s running task', () => {
    const gateDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-bus-attacks-gate-'));
    const gates = { running: path.join(gateDirectory, 'running'), queued: path.join(gateDirectory, 'queued') };
    // The real CLI runs a tool that waits for its gate (gatedPrompt): the task runs as long as the attacks take.
    let chatSessionId: string;
    let runningTask: string;
    let queuedTask: string;
    const waitForGatedTool = async (taskId: string): Promise<void> => {
      await until(async () => (await taskFacts(attack, taskId))?.status === 'running', { description: `task ${taskId} running`, timeoutMs: 90_000 });
      await until(async () => (await storedTaskMessages(attack.system.connection, taskId)).some((stored) => stored.type === 'tool-use'), { description: 'the gate’s tool call', timeoutMs: 60_000 });
    };

    beforeAll(async () => {
      chatSessionId = (await attack.api('POST', '/api/chat-sessions', { agentId })).body.id;
      runningTask = (await attack.api('POST', `/api/chat-sessions/${chatSessionId}/messages`, { body: gatedPrompt(gates.running) })).body.task.taskId;
      await waitForGatedTool(runningTask);
      // The agent runs one task at a time: this one waits in the queue, for the claims to try to take.
      queuedTask = await createTask(gatedPrompt(gates.queued));
    }, 180_000);

    afterAll(() => {
      for (const gate of Object.values(gates)) writeFileSync(gate, 'open');
      rmSync(gateDirectory, { recursive: true, force: true });
    });

    it('cmd.task.claim as daemon B naming daemon A’s runtime ids gets no task, even after B heartbeats them', async () => {
      const seq = await publishEvent(daemonB, subjects.runtimeHeartbeat(victimRuntime, idOf(daemonB)), runtimeHeartbeat({ daemonId: idOf(daemonB), runtimeId: victimRuntime }));
      await consumerPassed(attack.system.connection, { stream: 'RUNTIME_EVENTS', consumer: 'queue-runtime-presence', seq });

      const reply = await sendCommand(daemonB.connection, { command: 'task.claim', payload: claimPayload({ daemonId: idOf(daemonB), runtimeIds: [victimRuntime], sealingKey: enrolledB.curvePublicKey }), sender: idOf(daemonB) });
      expect(reply).toEqual({ ok: true, result: { tasks: [] } });
      expect(await taskFacts(attack, queuedTask)).toMatchObject({ status: 'queued', daemon_id: null });
      expect(await attack.query('select daemon_id from runtime_presence where runtime_id = $1', [victimRuntime])).toEqual([{ daemon_id: victimId }]);
    });

    it('a claim request id sniffed from daemon A and replayed by daemon B gets nothing of A’s claim', async () => {
      const [claim] = await attack.query<{ request_id: string }>(
        "select request_id from processed_command where command_type = 'task.claim' and sender = $1 and reply::text like $2",
        [victimId, `%${runningTask}%`],
      );
      expect(claim).toBeDefined();
      const replayed = await sendCommand(daemonB.connection, { command: 'task.claim', payload: claimPayload({ daemonId: idOf(daemonB), runtimeIds: [victimRuntime], sealingKey: enrolledB.curvePublicKey }), sender: idOf(daemonB), requestId: claim!.request_id });
      expect(replayed).toMatchObject({ ok: false, error: { code: 'sender_mismatch' } });
      expect(JSON.stringify(replayed)).not.toContain(runningTask);
      // Nor may B ask on A's subject, where the queue would take it for A.
      const onVictimSubject = await requestRefused(daemonB, subjects.command('task.claim', victimId), () =>
        requestReply(daemonB.connection, { subject: subjects.command('task.claim', victimId), data: {}, requestId: claim!.request_id, timeoutMs: 1_500 }),
      );
      expect(onVictimSubject.refusal).toMatch(/Permissions Violation/);
      expect(await taskFacts(attack, runningTask)).toMatchObject({ status: 'running', daemon_id: victimId });
    });

    it('cmd.task.enqueue sent by a daemon identity (forged extraArgs and MCP command) is refused by permissions: no task row, no run', async () => {
      const before = await tableCounts(attack);
      const marker = `forged-${randomSecret().slice(0, 12)}`;
      const forged = forgedEnqueue({ runtimeId: victimRuntime, marker });
      for (const attacker of [daemonB, thief]) {
        const attempt = await requestRefused(attacker, subjects.command('task.enqueue'), () =>
          requestReply(attacker.connection, { subject: subjects.command('task.enqueue'), data: forged.envelope, requestId: forged.requestId, timeoutMs: 1_500 }),
        );
        expect(attempt.refusal).toMatch(/Permissions Violation/);
        expect(attempt.outcome).toMatch(/^failed/);
      }
      expect(await attack.query('select task_id from agent_task_queue where agent_id = $1', [forged.payload.agentId])).toEqual([]);
      expect(await recordedRequests(attack, [forged.requestId])).toEqual([]);
      expect((await readStream(attack.system.connection, STREAM_CATALOG.TASK_EVENTS.name)).filter((message) => message.text.includes(marker))).toEqual([]);
      expect(JSON.stringify(attack.system.model.requests().map((request) => request.body))).not.toContain(marker);
      expect((await tableCounts(attack)).agent_task_queue).toBe(before.agent_task_queue);
    });

    it('a task.enqueue envelope smuggled onto a daemon’s own command subjects is refused invalid_request and records nothing', async () => {
      const forged = forgedEnqueue({ runtimeId: victimRuntime, marker: `smuggled-${randomSecret().slice(0, 12)}` });
      const ownSubjects = [...(['task.claim', 'task.start', 'task.renew', 'task.complete', 'task.fail', 'task.release_orphans'] as const).map((name) => subjects.command(name, idOf(daemonB))), subjects.command('session.resolve', idOf(daemonB))];
      for (const subject of ownSubjects) {
        const reply = await requestReply(daemonB.connection, { subject, data: forged.envelope, requestId: forged.requestId, timeoutMs: 5_000 });
        expect({ subject, reply }).toMatchObject({ subject, reply: { ok: false, error: { code: 'invalid_request' } } });
      }
      expect(await attack.query('select task_id from agent_task_queue where agent_id = $1', [forged.payload.agentId])).toEqual([]);
      expect(await recordedRequests(attack, [forged.requestId])).toEqual([]);
    });

    it('forged task.start, task.renew, task.await_local_directory, task.complete and task.fail for daemon A’s attempt, or without its lease token, are refused sender_mismatch and change nothing', async () => {
      const facts = (await taskFacts(attack, runningTask))!;
      const requestIds: string[] = [];
      for (const name of LEASED_REPORTS) {
        const forgeries = [
          { sender: daemonB, named: victimId },
          { sender: daemonB, named: idOf(daemonB) },
          { sender: thief, named: victimId },
        ];
        for (const { sender, named } of forgeries) {
          const requestId = freshRequestId();
          requestIds.push(requestId);
          const payload = forgedReport(name, { taskId: runningTask, attempt: facts.attempt, daemonId: named });
          const reply = await sendCommand(sender.connection, { command: name, payload, sender: idOf(sender), requestId });
          expect({ name, sender: sender.label, named, reply }).toMatchObject({ name, sender: sender.label, named, reply: { ok: false, error: { code: 'sender_mismatch' } } });
        }
        // A service identity may publish `cmd.task.<name>`, which nobody answers, never the daemon's subject.
        const unserved = await requestReply(gateway.connection, { subject: `cmd.${name}`, data: {}, requestId: freshRequestId(), timeoutMs: 1_500 }).then(
          () => 'answered',
          (error: unknown) => String(error),
        );
        expect(unserved).toMatch(/no responders|timeout/i);
        await expect(publishRefused(gateway, subjects.command(name, victimId), {})).resolves.toMatch(/Permissions Violation/);
      }
      expect(await taskFacts(attack, runningTask)).toEqual(facts);
      expect(await recordedRequests(attack, requestIds)).toEqual([]);
    });

    it('a forged task.release_orphans for daemon A is refused sender_mismatch, and daemon B’s own releases none of A’s attempts', async () => {
      const facts = await taskFacts(attack, runningTask);
      const bootedAt = new Date().toISOString();
      const namingVictim = await sendCommand(daemonB.connection, { command: 'task.release_orphans', payload: { daemonId: victimId, bootedAt }, sender: idOf(daemonB) });
      expect(namingVictim).toMatchObject({ ok: false, error: { code: 'sender_mismatch' } });
      const own = await sendCommand(daemonB.connection, { command: 'task.release_orphans', payload: { daemonId: idOf(daemonB), bootedAt }, sender: idOf(daemonB) });
      expect(own).toEqual({ ok: true, result: { tasks: [] } });
      expect(await taskFacts(attack, runningTask)).toEqual(facts);
      expect(await taskFacts(attack, queuedTask)).toMatchObject({ status: 'queued' });
    });

    it('a cancel notice for the running task (empty or forged) from every non-queue identity is refused by permissions, and the run goes on', async () => {
      const facts = await taskFacts(attack, runningTask);
      for (const attacker of nonQueueIdentities()) {
        await expect(publishRefused(attacker, subjects.cancelNotice(victimId, runningTask))).resolves.toMatch(/Permissions Violation/);
        await expect(publishRefused(attacker, subjects.cancelNotice(victimId, runningTask), { taskId: runningTask, reason: 'forged' })).resolves.toMatch(/Permissions Violation/);
      }
      await expect(publishRefused(daemonB, subjects.command('task.cancel'), {})).resolves.toMatch(/Permissions Violation/);
      expect(await taskFacts(attack, runningTask)).toEqual(facts);
      const cancelEvents = (await readStream(attack.system.connection, STREAM_CATALOG.TASK_EVENTS.name)).filter((message) => message.subject.startsWith(`task.cancel`) && message.subject.includes(runningTask));
      expect(cancelEvents).toEqual([]);
    });

    it('a forged task.completed for the chat task, published by a daemon or any non-queue service, is refused: no chat reply, task state unchanged', async () => {
      const facts = await taskFacts(attack, runningTask);
      for (const attacker of nonQueueIdentities()) {
        for (const publisher of [attacker.daemonId ?? attacker.label, 'queue']) {
          await expect(publishRefused(attacker, subjects.taskEvent({ type: 'task.completed', taskId: runningTask, publisher }), forgedCompletion(runningTask))).resolves.toMatch(/Permissions Violation/);
        }
      }
      expect(await attack.query("select id from chat_message where chat_session_id = $1 and role = 'agent'", [chatSessionId])).toEqual([]);
      expect(await taskFacts(attack, runningTask)).toEqual(facts);
      expect((await readStream(attack.system.connection, STREAM_CATALOG.TASK_EVENTS.name)).filter((message) => message.text.includes(FORGED_OUTPUT))).toEqual([]);
    });

    it('a forged usage message of 999,999,999 tokens from a non-holder daemon is dead-lettered and not recorded', async () => {
      const forged = forgedTaskMessage({ taskId: runningTask, seq: 100_000, attempt: 1, message: FORGED_USAGE });
      const subject = subjects.taskEvent({ type: 'task.message', taskId: runningTask, publisher: idOf(daemonB) });
      const seq = await publishEvent(daemonB, subject, forged, messageIds.taskMessage({ publisher: idOf(daemonB), taskId: runningTask, seq: 100_000 }));
      await consumerPassed(attack.system.connection, { stream: 'TASK_EVENTS', consumer: 'transcript-timeline', seq });
      const letters = (await deadLetters(attack.system.connection)).filter((letter) => letter.subject === subject && letter.text.includes(forged.eventId));
      expect(letters).toHaveLength(1);
      expect(letters[0]!.reason).toContain(idOf(daemonB));
      expect(await attack.query("select model from task_usage where model = 'forged-model' or input_tokens >= 999999999")).toEqual([]);
    });

    it('a forged task.message with a future seq from a non-holder daemon is dead-lettered with its reason and never takes the seq: the holder’s row of that seq is stored', async () => {
      const futureSeq = Math.max(...(await holderMessages(attack, { taskId: runningTask, holder: victimId })).map((stored) => stored.seq)) + 1;
      const forged = await forgeTimelineMessage({ attack, forger: daemonB, taskId: runningTask, seq: futureSeq, messageId: messageIds.taskMessage({ publisher: idOf(daemonB), taskId: runningTask, seq: futureSeq }) });
      expect(forged.reason).toEqual(expect.stringContaining(idOf(daemonB)));
      expect(forged.reason).toEqual(expect.stringContaining(victimId));

      writeFileSync(gates.running, 'open');
      expect(await ended(runningTask)).toBe('completed');
      await until(async () => (await holderMessages(attack, { taskId: runningTask, holder: victimId })).some((stored) => stored.seq > futureSeq), { description: 'the holder’s messages past the forged seq' });
      const held = await holderMessages(attack, { taskId: runningTask, holder: victimId });
      expect(held.map((stored) => stored.seq)).toEqual(held.map((_, index) => index));
      const holderMessage = held.find((stored) => stored.seq === futureSeq)!;
      const row = await holderRow(attack, { taskId: runningTask, holder: victimId, seq: futureSeq });
      if (row !== 'no row for this type') expect(row).toEqual({ id: holderMessage.eventId });
      expect(await attack.query('select seq from task_message where id = $1', [forged.eventId])).toEqual([]);
    });

    it('a forged task.message carrying the holder’s own dedupe id (<holder>:<task>:<seq>) from a non-holder daemon does not suppress the holder’s message of that seq', async () => {
      await waitForGatedTool(queuedTask);
      const nextSeq = Math.max(...(await holderMessages(attack, { taskId: queuedTask, holder: victimId })).map((stored) => stored.seq)) + 1;
      // JetStream dedupes by `Nats-Msg-Id` alone, whatever the subject: the id the holder will publish its next message with.
      const forged = await forgeTimelineMessage({ attack, forger: daemonB, taskId: queuedTask, seq: nextSeq, messageId: messageIds.taskMessage({ publisher: victimId, taskId: queuedTask, seq: nextSeq }) });
      expect(forged.reason).toEqual(expect.stringContaining(idOf(daemonB)));

      writeFileSync(gates.queued, 'open');
      expect(await ended(queuedTask)).toBe('completed');
      await until(async () => (await holderMessages(attack, { taskId: queuedTask, holder: victimId })).some((stored) => stored.seq > nextSeq), { description: 'the holder’s messages past the forged seq' });
      const held = await holderMessages(attack, { taskId: queuedTask, holder: victimId });
      // Every seq the holder used is stored, the forged one included: no gap in its timeline.
      expect({ seqs: held.map((stored) => stored.seq) }).toEqual({ seqs: held.map((_, index) => index) });
      const row = await holderRow(attack, { taskId: queuedTask, holder: victimId, seq: nextSeq });
      if (row !== 'no row for this type') expect(row).toEqual({ id: held.find((stored) => stored.seq === nextSeq)!.eventId });
    });

    it('after every forgery the running task completes with its own output, its chat reply is the agent’s real one, and the task queued behind it runs', async () => {
      expect(await taskFacts(attack, runningTask)).toMatchObject({ status: 'completed', daemon_id: victimId, failure_reason: null });
      const completed = (await readStream(attack.system.connection, STREAM_CATALOG.TASK_EVENTS.name)).filter((message) => message.subject === subjects.taskEvent({ type: 'task.completed', taskId: runningTask, publisher: 'queue' }));
      expect(completed).toHaveLength(1);
      expect(completed[0]!.text).toContain('gate-open');
      const replies = await until(async () => nonEmpty(await attack.query<{ body: string }>("select body from chat_message where chat_session_id = $1 and role = 'agent'", [chatSessionId])), {
        description: 'the chat reply',
      });
      expect(replies).toHaveLength(1);
      expect(replies[0]!.body).toContain('gate-open');
      expect(replies[0]!.body).not.toContain('forged');
      expect(await ended(queuedTask)).toBe('completed');
    });
  });

  describe('runtime registration', () => {
    const viewOf = async (runtimeId: string): Promise<Record<string, unknown> | undefined> =>
      (await attack.query<Record<string, unknown>>('select workspace_id, daemon_id, identity, version, command_name, capacity, registered_at from runtime_view where runtime_id = $1', [runtimeId]))[0];

    it('runtime.registered with an attacker-chosen occurredAt, naming another daemon’s runtime, another daemon or another workspace never moves a runtime’s workspace or daemon', async () => {
      const owned = await viewOf(victimRuntime);
      const ownRuntime = `${idOf(daemonB)}-claude-code`;
      const foreignRuntime = `${idOf(daemonB)}-elsewhere`;
      const future = '2099-01-01T00:00:00.000Z';
      const forgeries = [
        { runtimeId: victimRuntime, event: runtimeRegistration({ daemonId: idOf(daemonB), workspaceId: owned!.workspace_id as string, runtimeId: victimRuntime, occurredAt: future, version: '6.6.6-forged' }) },
        { runtimeId: victimRuntime, event: runtimeRegistration({ daemonId: idOf(daemonB), workspaceId: 'workspace-attacker', runtimeId: victimRuntime, occurredAt: future, version: '6.6.6-forged' }) },
        { runtimeId: victimRuntime, event: runtimeRegistration({ daemonId: victimId, workspaceId: 'workspace-attacker', runtimeId: victimRuntime, version: '6.6.6-forged' }) },
        { runtimeId: foreignRuntime, event: runtimeRegistration({ daemonId: idOf(daemonB), workspaceId: 'workspace-attacker', runtimeId: foreignRuntime }) },
        { runtimeId: ownRuntime, event: runtimeRegistration({ daemonId: idOf(daemonB), workspaceId: owned!.workspace_id as string, runtimeId: ownRuntime, occurredAt: future }) },
      ];
      let lastSeq = 0;
      for (const forgery of forgeries) lastSeq = await publishEvent(daemonB, subjects.runtimeEvent({ type: 'runtime.registered', runtimeId: forgery.runtimeId, publisher: idOf(daemonB) }), forgery.event);
      await consumerPassed(attack.system.connection, { stream: 'RUNTIME_EVENTS', consumer: 'gateway-runtime-view', seq: lastSeq });

      expect(await viewOf(victimRuntime)).toEqual(owned);
      expect((await attack.api('GET', `/api/runtimes/${victimRuntime}`)).body).toMatchObject({ daemonId: victimId, status: 'online' });
      expect(await viewOf(foreignRuntime)).toBeUndefined();
      // B's own runtime is B's to register, at the server's time, not the one it wrote.
      expect(new Date((await viewOf(ownRuntime))!.registered_at as string).getTime()).toBeLessThan(Date.parse(future));
      const namingVictim = (await deadLetters(attack.system.connection)).filter((letter) => letter.text.includes(forgeries[2]!.event.eventId));
      expect(namingVictim.map((letter) => letter.consumer)).toEqual(['gateway-runtime-view']);
    });

    it('runtime.heartbeat and runtime.offline for daemon A’s runtime from daemon B change neither the queue’s presence nor the gateway’s view', async () => {
      const presence = await attack.query('select daemon_id, offline_since from runtime_presence where runtime_id = $1', [victimRuntime]);
      const forged = [
        runtimeHeartbeat({ daemonId: idOf(daemonB), runtimeId: victimRuntime }),
        runtimeOffline({ daemonId: idOf(daemonB), runtimeId: victimRuntime }),
        runtimeHeartbeat({ daemonId: victimId, runtimeId: victimRuntime }),
        runtimeOffline({ daemonId: victimId, runtimeId: victimRuntime }),
      ];
      let lastSeq = 0;
      for (const event of forged) lastSeq = await publishEvent(daemonB, subjects.runtimeEvent({ type: event.type, runtimeId: victimRuntime, publisher: idOf(daemonB) }), event);
      await consumerPassed(attack.system.connection, { stream: 'RUNTIME_EVENTS', consumer: 'gateway-runtime-view', seq: lastSeq });
      await consumerPassed(attack.system.connection, { stream: 'RUNTIME_EVENTS', consumer: 'queue-runtime-presence', seq: lastSeq });

      expect(await attack.query('select daemon_id, offline_since from runtime_presence where runtime_id = $1', [victimRuntime])).toEqual(presence);
      expect((await attack.api('GET', `/api/runtimes/${victimRuntime}`)).body).toMatchObject({ daemonId: victimId, status: 'online' });
      const letters = await deadLetters(attack.system.connection);
      const consumersOf = (eventId: string): string[] => letters.filter((letter) => letter.text.includes(eventId)).map((letter) => letter.consumer).sort();
      expect(consumersOf(forged[2]!.eventId)).toEqual(['gateway-runtime-view', 'queue-runtime-presence']);
      expect(consumersOf(forged[3]!.eventId)).toEqual(['gateway-runtime-view']);
    });

    it('cmd.task.claim naming a runtime whose first heartbeat daemon B sent before its owner registered it gets B no task of the owner', async () => {
      const outcome = await squatRuntimeThenClaim({ attack, squatter: daemonB, squatterCurveSeed: enrolledB.curveSeed, agentEnv: { SQUAT_SECRET: randomSecret() }, opened });
      expect({ claimedBySquatter: outcome.claimedBySquatter, secretLeaked: outcome.secretLeaked, presenceHolder: outcome.presenceHolder, taskStatus: outcome.taskStatus }).toEqual({
        claimedBySquatter: [],
        secretLeaked: false,
        presenceHolder: outcome.ownerId,
        taskStatus: 'queued',
      });
    });
  });

  describe('poison on every subscribed subject', () => {
    it('non-JSON and empty bodies on every subject a service or the daemon subscribes to are dead-lettered or answered, nothing is written, and every process stays up', async () => {
      const queue = await connectAsService({ natsUrl: attack.natsUrl, namespace, name: 'queue' });
      opened.push(queue);
      const targets = poisonTargets({ namespace, attackerDaemonId: idOf(daemonB), victimDaemonId: victimId, tooling: TEST_TOOLING });
      // Every consumer the expectations name exists: a renamed one would make them vacuous.
      for (const consumer of DURABLE_CONSUMERS) await expect(consumerState(attack.system.connection, { stream: consumer.stream, name: consumer.name })).resolves.toBeDefined();
      expect(targets.filter((target) => target.consumers.length > 0).length).toBeGreaterThan(10);
      const before = await tableCounts(attack);
      const storm = await runPoisonStorm({ attack, targets, publishers: [daemonB, gateway, sessionResume, transcript, queue] });
      expect(storm.refusedPublishes).toEqual([]);
      expect(storm.commandAnswers.filter((answer) => answer.code !== 'invalid_request')).toEqual([]);
      expect(storm.missingDeadLetters).toEqual([]);
      expect(storm.unlogged).toEqual([]);
      expect(storm.liveFeedOpen).toBe(true);
      expect(await tableCounts(attack)).toEqual(before);
      expect(await attack.health()).toEqual(attack.processes().map(({ name }) => ({ name, alive: true, healthz: 200, readyz: 200 })));
    });
  });

  describe('after every attack', () => {
    it('every service process and the daemon are alive and healthy, and a normal task completes', async () => {
      expect(await attack.health()).toEqual(attack.processes().map(({ name }) => ({ name, alive: true, healthz: 200, readyz: 200 })));
      const taskId = await createTask('After the attacks [[scenario:text]]');
      expect(await ended(taskId)).toBe('completed');
      const timeline = await until(async () => nonEmpty(((await attack.api('GET', `/api/tasks/${taskId}/messages`)).body.messages as Array<{ type: string }>).filter((entry) => entry.type === 'text')), {
        description: 'the normal task’s reply projected',
      });
      expect(timeline.length).toBeGreaterThan(0);
    });

    // Secrets travel as references; the claim reply seals their values to the daemon's curve key,
    // and the agent table and the queue's bundles keep them sealed (before issue 16 `task.enqueued`
    // carried them in clear).
    it('no secret of the agent (env value, MCP env and header values) appears in TASK_EVENTS, RUNTIME_EVENTS, SESSION_EVENTS, DEAD_LETTERS, outbox_event, processed_command, agent or task_secret_bundle', async () => {
      // The agent does hold them (shown masked), and every task above ran with them.
      expect((await attack.api('GET', `/api/agents/${agentId}`)).body).toMatchObject({
        env: { SECRET_TOKEN: '********' },
        mcpServers: { local: { env: { MCP_PROBE_SECRET: '********' } }, remote: { headers: { Authorization: '********' } } },
      });
      // The search reads what it claims to: the agent's id is in the stream and the outbox.
      expect(await secretSightings(attack, [agentId])).toEqual(expect.arrayContaining([expect.stringMatching(/^TASK_EVENTS /), expect.stringMatching(/^outbox_event /)]));
      expect(await secretSightings(attack, Object.values(secrets))).toEqual([]);
    });
  });
});
