import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { z } from 'zod';
import { uniqueNamespace, connectTestMessaging } from '@switchyard/testing';
import { type MessagingConnection } from '../connection/messaging.connection';
import { MESSAGING_ERROR_CODES, RemoteRequestError, RequestFailedError } from '../errors/messaging.errors';
import { REPLY_ERROR_CODES, ReplyError } from './reply.envelope';
import { request, serveRequests, type RequestContext, type RequestServer } from './request-reply';
import { collectNotices, flushConnection } from '../testing-support/collect-notices';
import { publishRawMessage } from '../testing-support/raw-messages';

const claimSchema = z.object({ runtimeId: z.string() });

describe('request/reply against nats-server', () => {
  let connection: MessagingConnection;
  let server: RequestServer;
  const contexts: RequestContext[] = [];

  beforeAll(async () => {
    connection = await connectTestMessaging({ name: 'request-reply-int', namespace: uniqueNamespace() });
    server = serveRequests(connection, {
      subject: 'queue.command.claim',
      queueGroup: 'queue',
      requestSchema: claimSchema,
      handler: async (command, context) => {
        contexts.push(context);
        if (command.runtimeId === 'crash') throw new Error('database exploded');
        if (command.runtimeId === 'unknown') throw new ReplyError('not_found', 'no such runtime');
        return Promise.resolve({ taskId: `task-for-${command.runtimeId}` });
      },
    });
    await flushConnection(connection);
  });

  afterAll(async () => {
    await server.stop();
    await connection.close();
  });

  it('answers with the handler result, passing request id and trace context along', async () => {
    const spanContext = { traceId: '5bf92f3577b34da6a3ce929d0e0e4736', spanId: '10f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

    const reply = await request(connection, {
      subject: 'queue.command.claim',
      data: { runtimeId: 'r1' },
      requestId: 'claim-1',
      traceContext: trace.setSpanContext(ROOT_CONTEXT, spanContext),
      responseSchema: z.object({ taskId: z.string() }),
    });

    expect(reply).toEqual({ taskId: 'task-for-r1' });
    const context = contexts.find((candidate) => candidate.requestId === 'claim-1');
    expect(context?.subject).toBe('queue.command.claim');
    expect(trace.getSpanContext(context?.traceContext ?? ROOT_CONTEXT)?.traceId).toBe(spanContext.traceId);
  });

  it('answers internal, without the detail, when the handler throws', async () => {
    const failing = request(connection, { subject: 'queue.command.claim', data: { runtimeId: 'crash' }, requestId: 'claim-2' });

    await expect(failing).rejects.toBeInstanceOf(RemoteRequestError);
    await expect(failing).rejects.toMatchObject({ replyCode: REPLY_ERROR_CODES.internal, isRetryable: true });
    await expect(failing).rejects.not.toThrow(/database exploded/);
  });

  it('answers invalid_request for a payload failing the schema, and a handler code when given', async () => {
    await expect(request(connection, { subject: 'queue.command.claim', data: { runtime: 1 }, requestId: 'claim-3' })).rejects.toMatchObject({
      code: MESSAGING_ERROR_CODES.remoteError,
      replyCode: REPLY_ERROR_CODES.invalidRequest,
    });
    await expect(
      request(connection, { subject: 'queue.command.claim', data: { runtimeId: 'unknown' }, requestId: 'claim-4' }),
    ).rejects.toMatchObject({ replyCode: 'not_found' });
  });

  it('keeps serving after errors', async () => {
    await expect(request(connection, { subject: 'queue.command.claim', data: { runtimeId: 'r2' }, requestId: 'claim-5' })).resolves.toEqual({
      taskId: 'task-for-r2',
    });
  });

  it('answers a cmd.* request that is not JSON, empty, or with unreadable headers with invalid_request, and serves the next one', async () => {
    const commands = serveRequests(connection, { subject: 'cmd.probe.claim', queueGroup: 'probe', requestSchema: claimSchema, handler: async (command) => Promise.resolve({ taskId: `task-for-${command.runtimeId}` }) });
    try {
      const replies = await collectNotices(connection, 'probe.replies');
      await flushConnection(connection);
      publishRawMessage(connection, { subject: 'cmd.probe.claim', text: 'not json {', replyTo: 'probe.replies' });
      publishRawMessage(connection, { subject: 'cmd.probe.claim', text: '', replyTo: 'probe.replies' });
      publishRawMessage(connection, { subject: 'cmd.probe.claim', text: '{"runtimeId":"r3"}', replyTo: 'probe.replies', unreadableHeader: true });
      const refused = (await replies.waitFor(3)).map((reply) => JSON.parse(reply.text) as unknown);
      replies.close();

      expect(refused).toEqual([
        { ok: false, error: { code: REPLY_ERROR_CODES.invalidRequest, message: expect.stringContaining('not valid JSON'), retryable: false } },
        { ok: false, error: { code: REPLY_ERROR_CODES.invalidRequest, message: expect.stringContaining('not valid JSON'), retryable: false } },
        { ok: false, error: { code: REPLY_ERROR_CODES.invalidRequest, message: expect.stringContaining('headers are unreadable'), retryable: false } },
      ]);
      await expect(request(connection, { subject: 'cmd.probe.claim', data: { runtimeId: 'r4' }, requestId: 'claim-6' })).resolves.toEqual({ taskId: 'task-for-r4' });
    } finally {
      await commands.stop();
    }
  });

  it('fails as retryable when nobody serves the subject', async () => {
    const failing = request(connection, { subject: 'queue.command.missing', data: {}, requestId: 'x', timeoutMs: 1_000 });

    await expect(failing).rejects.toBeInstanceOf(RequestFailedError);
    await expect(failing).rejects.toMatchObject({ isRetryable: true });
  });
});
