import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { HEADERS, commandSuccess, subjects, type CommandReply, type TaskCancelCommand, type TaskClaimCommand, type TaskClaimResult, type TaskStateResult } from '@switchyard/contracts';
import { uniqueNamespace, connectTestMessaging, testMessagingOptions } from '@switchyard/testing';
import { type MessagingConnection } from '../connection/messaging.connection';
import { PermanentError } from '../errors/messaging.errors';
import { MessagingModule } from '../nest/messaging.module';
import { DEAD_LETTER_STREAM_NAME, deadLetterStreamDefinition, type ConsumerDefinition, type StreamDefinition } from '../provisioning/stream.definitions';
import { publish } from '../publishing/jetstream.publisher';
import { sendCommand } from '../request-reply/command.client';
import { ReplyError } from '../request-reply/reply.envelope';
import { requestReply } from '../request-reply/request-reply';
import { consumerState } from '../testing-support/consumer-state';
import { deleteNamespaceStreams } from '../testing-support/namespace-cleanup';
import { readStream } from '../testing-support/read-stream';
import { waitFor } from '../testing-support/wait-for';
import { connectMessagingTransport } from './connect-messaging-transport';
import { commandResponder, eventConsumer } from './handler.declarations';
import { CommandRequestContext, JetStreamEventContext } from './transport.contexts';

const namespace = uniqueNamespace();
const streams: StreamDefinition[] = [{ name: 'TASKS', subjects: ['task.>'], storage: 'memory' }, deadLetterStreamDefinition({ storage: 'memory' })];
const WORKER: ConsumerDefinition = { stream: 'TASKS', name: 'transport-worker', filterSubjects: ['task.work.>'], ackWaitMs: 10_000, maxDeliver: 3 };
const CONFIGURED: ConsumerDefinition = { stream: 'TASKS', name: 'transport-configured', filterSubjects: ['task.configured.>'], ackWaitMs: 10_000, maxDeliver: 2 };

interface Work {
  readonly id: string;
  readonly behaviour: 'apply' | 'hold' | 'fail-once' | 'poison' | 'always-fail';
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** What the handlers did, for the assertions. */
const seen = {
  deliveries: new Map<string, number[]>(),
  applied: [] as string[],
  configured: [] as unknown[],
  requests: [] as Array<{ command: string; sender: string | undefined; headerRequestId: string | undefined; envelopeRequestId: string }>,
  cancels: [] as Array<{ command: string; sender: string | undefined }>,
  release: deferred(),
};

@Controller()
class WorkHandlers {
  @EventPattern(WORKER.name, eventConsumer({ consumer: WORKER, concurrency: 2, retryDelayMs: 50 }))
  async work(@Payload() work: Work, @Ctx() context: JetStreamEventContext): Promise<void> {
    const { deliveryCount } = context.getDelivery();
    seen.deliveries.set(work.id, [...(seen.deliveries.get(work.id) ?? []), deliveryCount]);
    if (work.behaviour === 'hold') await seen.release.promise;
    if (work.behaviour === 'fail-once' && deliveryCount === 1) throw new Error('database unavailable');
    if (work.behaviour === 'always-fail') throw new Error('database unavailable');
    if (work.behaviour === 'poison') throw new PermanentError(`work ${work.id} is not doable`);
    seen.applied.push(work.id);
  }

  @EventPattern(CONFIGURED.name)
  async configured(@Payload() body: unknown): Promise<void> {
    seen.configured.push(body);
    return Promise.resolve();
  }

  @MessagePattern('task.claim', commandResponder({ queueGroup: 'transport-test' }))
  async claim(@Payload() envelope: TaskClaimCommand, @Ctx() context: CommandRequestContext): Promise<CommandReply<TaskClaimResult>> {
    seen.requests.push({ command: context.getCommand(), sender: context.getSender(), headerRequestId: context.getRequestId(), envelopeRequestId: envelope.requestId });
    switch (envelope.payload.daemonId) {
      case 'refuse':
        throw new ReplyError('conflict', 'another daemon holds the lease');
      case 'crash':
        throw new Error('database exploded');
      case 'off-contract':
        return Promise.resolve({ ok: true, result: { tasks: 'none' } } as unknown as CommandReply<TaskClaimResult>);
      default:
        return Promise.resolve(commandSuccess({ tasks: [] }));
    }
  }

  @MessagePattern('task.cancel', commandResponder({ queueGroup: 'transport-test' }))
  async cancel(@Payload() envelope: TaskCancelCommand, @Ctx() context: CommandRequestContext): Promise<CommandReply<TaskStateResult>> {
    seen.cancels.push({ command: context.getCommand(), sender: context.getSender() });
    return Promise.resolve(commandSuccess({ taskId: envelope.payload.taskId, state: 'cancelled' }));
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: async () => ({
        ...(await testMessagingOptions({ name: 'transport-int', namespace })),
        streams,
        eventConsumers: { [CONFIGURED.name]: { consumer: CONFIGURED } },
      }),
    }),
  ],
  controllers: [WorkHandlers],
})
class TransportAppModule {}

async function startHybrid(module: unknown): Promise<INestApplication> {
  const app = await NestFactory.create(module as never, { logger: false, abortOnError: false });
  connectMessagingTransport(app);
  await app.init();
  await app.startAllMicroservices();
  return app;
}

const claimPayload = (daemonId: string) => ({ daemonId, runtimeIds: ['runtime-1'], maxTasks: 1, sealingKey: `X${'A'.repeat(55)}` });

describe('MessagingTransport (NestJS custom transport strategy, real NATS)', () => {
  let app: INestApplication | undefined;
  let observer: MessagingConnection;

  const publishWork = (work: Work): Promise<unknown> => publish(observer, { subject: `task.work.${work.id}`, data: work, messageId: `work:${work.id}` });
  const deadLetters = async () => (await readStream(observer, DEAD_LETTER_STREAM_NAME)).filter((letter) => letter.subject === subjects.deadLetter('TASKS', WORKER.name));

  beforeAll(async () => {
    app = await startHybrid(TransportAppModule);
    observer = await connectTestMessaging({ name: 'transport-int-observer', namespace });
  });

  afterAll(async () => {
    seen.release.resolve();
    await app?.close();
    await deleteNamespaceStreams(observer);
    await observer.close();
  });

  it('acks an @EventPattern message only once the handler’s effect has resolved', async () => {
    await publishWork({ id: 'held', behaviour: 'hold' });
    await waitFor(() => seen.deliveries.get('held')?.length === 1, { description: 'held delivery' });

    expect((await consumerState(observer, { stream: 'TASKS', name: WORKER.name })).ackPending).toBe(1);
    expect(seen.applied).not.toContain('held');

    seen.release.resolve();
    await waitFor(async () => (await consumerState(observer, { stream: 'TASKS', name: WORKER.name })).ackPending === 0, { description: 'ack recorded' });
    expect(seen.applied).toContain('held');
    expect(seen.deliveries.get('held')).toEqual([1]);
  });

  it('naks a retryable failure; the redelivery applies the effect once', async () => {
    await publishWork({ id: 'flaky', behaviour: 'fail-once' });

    await waitFor(() => seen.applied.includes('flaky'), { description: 'applied on redelivery' });
    expect(seen.deliveries.get('flaky')).toEqual([1, 2]);
    expect(seen.applied.filter((id) => id === 'flaky')).toHaveLength(1);
  });

  it('dead-letters poison at once, a payload it cannot decode without calling the handler, and the last failed delivery', async () => {
    await publishWork({ id: 'poison', behaviour: 'poison' });
    await publishWork({ id: 'doomed', behaviour: 'always-fail' });
    await publish(observer, { subject: 'task.work.garbled', data: new TextEncoder().encode('not json {'), messageId: 'work:garbled' });

    const letters = await waitFor(async () => {
      const found = await deadLetters();
      return found.length === 3 && found;
    }, { description: 'three dead letters' });
    const reasons = Object.fromEntries(letters.map((letter) => [letter.headers[HEADERS.deadLetterSubject], letter.headers[HEADERS.deadLetterReason]?.split(':')[0]]));
    expect(reasons).toEqual({ 'task.work.poison': 'permanent_error', 'task.work.doomed': 'max_deliver_exceeded', 'task.work.garbled': 'decode_failed' });
    expect(seen.deliveries.get('poison')).toEqual([1]);
    expect(seen.deliveries.get('doomed')).toEqual([1, 2, 3]);
    expect(seen.deliveries.has('garbled')).toBe(false);
    // Terminated, not left for redelivery; and the consumer goes on.
    await waitFor(async () => (await consumerState(observer, { stream: 'TASKS', name: WORKER.name })).ackPending === 0, { description: 'letters terminated' });
    await publishWork({ id: 'after', behaviour: 'apply' });
    await waitFor(() => seen.applied.includes('after'), { description: 'next message applied' });
  });

  it('takes a consumer’s options from the eventConsumers table when the pattern has no extras', async () => {
    await publish(observer, { subject: 'task.configured.one', data: { n: 1 }, messageId: 'configured:1' });

    await waitFor(() => seen.configured.length === 1, { description: 'configured consumer delivery' });
    expect(seen.configured).toEqual([{ n: 1 }]);
    expect((await consumerState(observer, { stream: 'TASKS', name: CONFIGURED.name })).maxDeliver).toBe(2);
  });

  it('answers an @MessagePattern command with the handler’s reply, its request id and sender in the context', async () => {
    const reply = await sendCommand(observer, { command: 'task.claim', payload: claimPayload('daemon-ok'), sender: 'daemon-ok', requestId: 'request-ok-1' });

    expect(reply).toEqual({ ok: true, result: { tasks: [] } });
    expect(seen.requests.at(-1)).toEqual({ command: 'task.claim', sender: 'daemon-ok', headerRequestId: 'request-ok-1', envelopeRequestId: 'request-ok-1' });
  });

  it('serves a daemon-sent command for every sender and a service-sent one on its name only', async () => {
    await sendCommand(observer, { command: 'task.claim', payload: claimPayload('daemon-a'), sender: 'daemon-b' });
    expect(seen.requests.at(-1)).toMatchObject({ sender: 'daemon-b' });

    const cancelled = await sendCommand(observer, { command: 'task.cancel', payload: { taskId: 'task-1', requestedBy: { kind: 'user', id: 'user-1' }, reason: null } });
    expect(cancelled).toEqual({ ok: true, result: { taskId: 'task-1', state: 'cancelled' } });
    expect(seen.cancels).toEqual([{ command: 'task.cancel', sender: undefined }]);
    // Nothing answers a daemon-sent command without its sender token.
    await expect(requestReply(observer, { subject: 'cmd.task.claim', data: {}, requestId: 'no-sender', timeoutMs: 500 })).rejects.toThrow(/no responders|timeout|TIMEOUT/i);
  });

  it('answers a ReplyError with its code, any other error as a retryable internal error, and never sends a reply outside the contract', async () => {
    expect(await sendCommand(observer, { command: 'task.claim', payload: claimPayload('refuse'), sender: 'refuse' })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'another daemon holds the lease', retryable: false },
    });
    expect(await sendCommand(observer, { command: 'task.claim', payload: claimPayload('crash'), sender: 'crash' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'internal error', retryable: true },
    });
    expect(await sendCommand(observer, { command: 'task.claim', payload: claimPayload('off-contract'), sender: 'off-contract' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'the reply to task.claim is outside its contract', retryable: false },
    });
  });

  it('answers a request outside the command’s schema with invalid_request, without calling the handler', async () => {
    const before = seen.requests.length;
    const reply = await requestReply(observer, { subject: subjects.command('task.claim', 'daemon-bad'), data: { requestId: 'bad-1', command: 'task.claim', payload: {} }, requestId: 'bad-1' });

    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_request', retryable: false } });
    expect(seen.requests).toHaveLength(before);
  });

  it('refuses to start handlers whose declarations are incomplete, naming each', async () => {
    @Controller()
    class UndeclaredHandlers {
      @EventPattern('undeclared-consumer')
      async undeclared(): Promise<void> {
        return Promise.resolve();
      }

      @MessagePattern('task.not_a_command', commandResponder({ queueGroup: 'x' }))
      async unknown(): Promise<void> {
        return Promise.resolve();
      }
    }
    @Module({ imports: [MessagingModule.forRootAsync({ useFactory: async () => ({ ...(await testMessagingOptions({ name: 'transport-int-undeclared', namespace })), streams }) })], controllers: [UndeclaredHandlers] })
    class UndeclaredModule {}

    const broken = await NestFactory.create(UndeclaredModule, { logger: false, abortOnError: false });
    try {
      connectMessagingTransport(broken);
      await broken.init();
      const started = broken.startAllMicroservices();
      await expect(started).rejects.toThrow(/'undeclared-consumer'\) declares no consumer/);
      await expect(started).rejects.toThrow(/'task.not_a_command'\) names no command of the contracts/);
    } finally {
      await broken.close();
    }
  });

  it('on shutdown lets a handler in flight finish and acks it before the connection drains', async () => {
    seen.release = deferred();
    await publishWork({ id: 'at-shutdown', behaviour: 'hold' });
    await waitFor(() => seen.deliveries.get('at-shutdown')?.length === 1, { description: 'delivery before shutdown' });

    const closing = app!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.applied).not.toContain('at-shutdown');
    seen.release.resolve();
    await closing;
    app = undefined;

    expect(seen.applied).toContain('at-shutdown');
    await waitFor(async () => (await consumerState(observer, { stream: 'TASKS', name: WORKER.name })).ackPending === 0, { description: 'ack recorded', timeoutMs: 2_000 });
    expect(seen.deliveries.get('at-shutdown')).toEqual([1]);
  });
});
