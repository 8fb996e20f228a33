import { getEventListeners } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STREAM_CATALOG, messageIds, subjects } from '@switchyard/contracts';
import { catalogStreamDefinitions, connectMessaging, provisionStreams, publish, startAuthenticatedNatsServer, type MessagingConnection } from '@switchyard/messaging';
import { deleteNamespaceStreams, readStream } from '@switchyard/messaging/testing';
import { createJsonLogger } from '@switchyard/service-kit';
import { uniqueNamespace, connectTestMessaging, testBusAuthority, testMessagingOptions } from '@switchyard/testing';
import { OutboxFileStore, type OutboxEntry } from './outbox-file.store';
import { MAX_UNACKNOWLEDGED_PER_TASK, TaskMessageOutbox } from './task-message.outbox';

const logger = createJsonLogger({ service: 'outbox-test', level: 'fatal' });
/** The acceptance's outage: NATS gone for 10 s in the middle of a run. */
const OUTAGE_MS = 10_000;

const DAEMON_ID = 'daemon-outbox-test';

function entry(taskId: string, seq: number): OutboxEntry {
  return {
    taskId,
    seq,
    subject: subjects.taskEvent({ type: 'task.message', taskId, publisher: DAEMON_ID }),
    messageId: messageIds.taskMessage({ publisher: DAEMON_ID, taskId, seq }),
    body: { taskId, seq },
  };
}

/**
 * The most abort listeners one signal held at once while `work` ran. Node warns past 10
 * (MaxListenersExceededWarning); jest's sandboxed `process` never sees that warning, so it is counted here.
 */
async function peakAbortListeners(work: () => Promise<void>): Promise<number> {
  const addEventListener = EventTarget.prototype.addEventListener;
  let peak = 0;
  const spy = jest.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (this: EventTarget, ...args: Parameters<EventTarget['addEventListener']>) {
    addEventListener.apply(this, args);
    if (args[0] === 'abort') peak = Math.max(peak, getEventListeners(this, 'abort').length);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return peak;
}

async function storedSeqs(connection: MessagingConnection, taskId: string): Promise<number[]> {
  const messages = await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name);
  return messages.filter((message) => message.subject === subjects.taskEvent({ type: 'task.message', taskId, publisher: DAEMON_ID })).map((message) => (JSON.parse(message.text) as { seq: number }).seq);
}

describe('task message outbox', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-outbox-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  describe('on the shared NATS', () => {
    let connection: MessagingConnection;
    beforeEach(async () => {
      connection = await connectTestMessaging({ name: 'outbox-test', namespace: uniqueNamespace() });
      await provisionStreams(connection, catalogStreamDefinitions());
    });
    afterEach(async () => {
      await deleteNamespaceStreams(connection);
      await connection.close();
    });

    it('publishes each task in seq order exactly once, then forgets the task once it is closed and acknowledged', async () => {
      const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
      for (let seq = 0; seq < 40; seq += 1) {
        await outbox.enqueue(entry('task-a', seq));
        await outbox.enqueue(entry('task-b', seq));
      }
      await outbox.closeTask('task-a');
      await outbox.closeTask('task-b');
      await Promise.all([outbox.drained('task-a'), outbox.drained('task-b')]);
      await outbox.stop();

      const expected = Array.from({ length: 40 }, (_, seq) => seq);
      expect(await storedSeqs(connection, 'task-a')).toEqual(expected);
      expect(await storedSeqs(connection, 'task-b')).toEqual(expected);
      expect(await readdir(directory)).toEqual([]);
    });

    it('after a daemon died, publishes what it left and nothing twice, even what had already arrived', async () => {
      // The previous run wrote 0..9, published 0..4 (JetStream has them) but recorded the ack only up to 2.
      const previous = new OutboxFileStore(directory);
      for (let seq = 0; seq < 10; seq += 1) await previous.append(entry('task-c', seq));
      for (let seq = 0; seq < 5; seq += 1) await publish(connection, { subject: entry('task-c', seq).subject, data: { taskId: 'task-c', seq }, messageId: entry('task-c', seq).messageId });
      await previous.markAcknowledged('task-c', 2);
      await previous.close();

      const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
      await outbox.drained('task-c');
      await outbox.stop();

      expect(await storedSeqs(connection, 'task-c')).toEqual(Array.from({ length: 10 }, (_, seq) => seq));
    });

    it('writes and publishes a task in call order when its enqueues do not wait for each other', async () => {
      // Given an outbox, when 500 messages of a task are enqueued back to back without waiting
      const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
      await Promise.all(Array.from({ length: 500 }, (_, seq) => outbox.enqueue(entry('task-burst', seq))));
      await outbox.closeTask('task-burst');
      await outbox.drained('task-burst');
      await outbox.stop();

      // Then the stream holds each once, in seq order, and the task's files are gone
      expect(await storedSeqs(connection, 'task-burst')).toEqual(Array.from({ length: 500 }, (_, seq) => seq));
      expect(await readdir(directory)).toEqual([]);
    });

    it('closing a task while its messages are still being written publishes them all before its files go', async () => {
      const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
      const writes = Array.from({ length: 50 }, (_, seq) => outbox.enqueue(entry('task-closing', seq)));
      await outbox.closeTask('task-closing');
      await Promise.all(writes);
      await outbox.drained('task-closing');
      await outbox.stop();

      expect(await storedSeqs(connection, 'task-closing')).toEqual(Array.from({ length: 50 }, (_, seq) => seq));
      expect(await readdir(directory)).toEqual([]);
    });

    it("removes a previous process's task files once what they hold is acknowledged", async () => {
      // Given a dead daemon's outbox: one task fully acknowledged, one with messages never published
      const previous = new OutboxFileStore(directory);
      for (let seq = 0; seq < 3; seq += 1) await previous.append(entry('task-acked', seq));
      await previous.markAcknowledged('task-acked', 2);
      for (let seq = 0; seq < 3; seq += 1) await previous.append(entry('task-unsent', seq));
      await previous.close();

      // When the next process opens it and publishes what was left
      const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
      await Promise.all([outbox.drained('task-acked'), outbox.drained('task-unsent')]);
      await outbox.stop();

      // Then nothing of either task stays on disk (their runs died with the old process)
      expect(await storedSeqs(connection, 'task-unsent')).toEqual([0, 1, 2]);
      expect(await readdir(directory)).toEqual([]);
    });

    it('retries many tasks at once without piling their waits onto one abort signal', async () => {
      const taskIds = Array.from({ length: 16 }, (_, index) => `task-retry-${index}`);
      const streamless = await connectTestMessaging({ name: 'outbox-retry-test', namespace: uniqueNamespace() });
      try {
        const peak = await peakAbortListeners(async () => {
          const outbox = await TaskMessageOutbox.open({ directory, connection: streamless, logger });
          // No stream yet: every publish fails as retryable and each task waits out its backoff.
          for (const taskId of taskIds) await outbox.enqueue(entry(taskId, 0));
          await new Promise((resolve) => setTimeout(resolve, 500));
          await provisionStreams(streamless, catalogStreamDefinitions());
          await Promise.all(taskIds.map((taskId) => outbox.drained(taskId)));
          await outbox.stop();
        });

        expect(peak).toBeGreaterThan(0);
        expect(peak).toBeLessThanOrEqual(1);
        for (const taskId of taskIds) expect(await storedSeqs(streamless, taskId)).toEqual([0]);
      } finally {
        await deleteNamespaceStreams(streamless);
        await streamless.close();
      }
    });

    it('holds an enqueue back while a task has too many messages unacknowledged, and lets it go once they are', async () => {
      const streamless = await connectTestMessaging({ name: 'outbox-room-test', namespace: uniqueNamespace() });
      try {
        // Given JetStream not taking anything (no stream yet) and a task at its in-memory limit
        const outbox = await TaskMessageOutbox.open({ directory, connection: streamless, logger });
        await Promise.all(Array.from({ length: MAX_UNACKNOWLEDGED_PER_TASK }, (_, seq) => outbox.enqueue(entry('task-room', seq))));
        // When one more is enqueued, it waits
        let settled = false;
        const over = outbox.enqueue(entry('task-room', MAX_UNACKNOWLEDGED_PER_TASK)).then(() => {
          settled = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(settled).toBe(false);
        // Then once the stream exists and acks flow, it goes through and nothing is lost
        await provisionStreams(streamless, catalogStreamDefinitions());
        await over;
        await outbox.closeTask('task-room');
        await outbox.drained('task-room');
        await outbox.stop();
        expect(await storedSeqs(streamless, 'task-room')).toEqual(Array.from({ length: MAX_UNACKNOWLEDGED_PER_TASK + 1 }, (_, seq) => seq));
      } finally {
        await deleteNamespaceStreams(streamless);
        await streamless.close();
      }
    });

    it('keeps what a full stream refuses until the stream has room, then publishes it in order, each once', async () => {
      const full = await connectTestMessaging({ name: 'outbox-full-test', namespace: uniqueNamespace() });
      const smallTimeline = (maxBytes: number) => catalogStreamDefinitions().map((definition) => (definition.name === STREAM_CATALOG.TASK_EVENTS.name ? { ...definition, maxBytes } : definition));
      try {
        // Given a timeline stream with room for a few dozen of the task's 200 messages, and nobody reading it
        await provisionStreams(full, smallTimeline(8 * 1024));
        const outbox = await TaskMessageOutbox.open({ directory, connection: full, logger });
        for (let seq = 0; seq < 200; seq += 1) await outbox.enqueue({ ...entry('task-full', seq), body: { taskId: 'task-full', seq, text: 'x'.repeat(100) } });

        // When the stream is full, it refuses the rest (discard new) and the outbox keeps them
        const held = async () => {
          const stored = await storedSeqs(full, 'task-full');
          return { stored, pending: outbox.pendingCount(), next: stored.length === 0 ? 0 : stored[stored.length - 1]! + 1 };
        };
        let state = await held();
        for (let previous = -1; state.next !== previous || state.next + state.pending !== 200; ) {
          previous = state.next;
          await new Promise((resolve) => setTimeout(resolve, 700));
          state = await held();
        }
        expect(state.next).toBeGreaterThan(0);
        expect(state.pending).toBeGreaterThan(100);
        expect(outbox.droppedCount()).toBe(0);
        // JetStream's discard-new check counts a message's payload and headers, but the stream stores
        // its subject and record overhead too: at the boundary it may take a message and evict its
        // oldest to fit (docs/operations/deploy.md). What it holds is one run of seqs ending where the
        // outbox's queue begins; what it evicted are its oldest only.
        const evictedAtBoundary = state.next - state.stored.length;
        expect(state.stored).toEqual(Array.from({ length: state.stored.length }, (_, index) => evictedAtBoundary + index));
        expect(evictedAtBoundary).toBeLessThan(state.stored.length / 2);

        // Then once an operator grows the stream, the rest go out in order, each once
        await provisionStreams(full, smallTimeline(1024 * 1024));
        await outbox.closeTask('task-full');
        await outbox.drained('task-full');
        await outbox.stop();
        expect(await storedSeqs(full, 'task-full')).toEqual(Array.from({ length: 200 - evictedAtBoundary }, (_, index) => evictedAtBoundary + index));
        expect(outbox.droppedCount()).toBe(0);
      } finally {
        await deleteNamespaceStreams(full);
        await full.close();
      }
    });

    it('stops at once while tasks wait out their retries, keeping their messages for the next run', async () => {
      const streamless = await connectTestMessaging({ name: 'outbox-stop-test', namespace: uniqueNamespace() });
      try {
        const outbox = await TaskMessageOutbox.open({ directory, connection: streamless, logger });
        for (let index = 0; index < 3; index += 1) await outbox.enqueue(entry(`task-stop-${index}`, 0));
        // Long enough to be in the publish backoff (100 ms, then 200 ms, ...), not past it.
        await new Promise((resolve) => setTimeout(resolve, 400));

        const stoppingAt = Date.now();
        await outbox.stop();

        expect(Date.now() - stoppingAt).toBeLessThan(1_000);
        expect(outbox.pendingCount()).toBe(3);
        const reopened = new OutboxFileStore(directory);
        expect((await reopened.recover()).pending).toHaveLength(3);
        await reopened.close();
      } finally {
        await streamless.close();
      }
    });
  });

  it('loses nothing when NATS is gone for 10 s mid-run', async () => {
    const store = await mkdtemp(path.join(tmpdir(), 'switchyard-outage-nats-'));
    // Its own server, in operator mode with the test bus's authority, so it can be stopped and restarted.
    let server = await startAuthenticatedNatsServer({ directory: store, authority: testBusAuthority() });
    const port = Number(new URL(server.url).port);
    const connection = await connectMessaging({ ...(await testMessagingOptions({ name: 'outbox-outage-test' })), url: server.url, reconnectTimeWaitMs: 200 });
    try {
      await provisionStreams(connection, catalogStreamDefinitions());
      const outbox = await TaskMessageOutbox.open({ directory, connection, logger });
      for (let seq = 0; seq < 10; seq += 1) await outbox.enqueue(entry('task-d', seq));
      await outbox.drained('task-d');

      await server.stop();
      // The agent keeps talking while NATS is away: every message is on disk before enqueue returns.
      for (let seq = 10; seq < 30; seq += 1) await outbox.enqueue(entry('task-d', seq));
      expect(outbox.pendingCount()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      server = await startAuthenticatedNatsServer({ directory: store, authority: testBusAuthority(), port });

      await outbox.drained('task-d');
      await outbox.stop();
      expect(await storedSeqs(connection, 'task-d')).toEqual(Array.from({ length: 30 }, (_, seq) => seq));
      expect(outbox.droppedCount()).toBe(0);
    } finally {
      await connection.close();
      await server.stop();
      await rm(store, { recursive: true, force: true });
    }
  }, 120_000);
});
