import type { DataSource, EntityManager } from 'typeorm';
import { commandFailure, type CommandReply } from '@switchyard/contracts';
import { openMigratedTestDatabase, uniqueNamespace, type MigratedTestDatabase } from '@switchyard/testing';
import { runIdempotentCommand, type ReplyRecord } from './run-idempotent-command';

type Reply = CommandReply<{ readonly effect: string }>;

/**
 * Each path by which a request id seen before gets its first reply: the first try of a command
 * never looks for one, so every path below starts from a try that did not know.
 */
describe('runIdempotentCommand (real Postgres)', () => {
  let database: MigratedTestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await openMigratedTestDatabase({ applicationName: 'idempotent-command-test' });
    dataSource = database.dataSource;
    // A command's own effect, to count how many tries left one.
    await dataSource.query('create table command_effect (request_id text not null, effect text not null)');
  });

  afterAll(() => database?.close());

  /** A command that writes its effect and answers with it (kept by the runner, or alongside its write). */
  const writing =
    (requestId: string, effect: string, options: { readonly alongside?: boolean } = {}) =>
    async (manager: EntityManager, replyRecord: ReplyRecord<{ effect: string }>): Promise<Reply> => {
      const reply: Reply = { ok: true, result: { effect } };
      const [kept] = options.alongside ? replyRecord.alongside(reply) : [];
      if (kept) {
        const statement = kept(3);
        await manager.query(`with kept as (${statement.sql}) insert into command_effect values ($1, $2)`, [requestId, effect, ...statement.parameters]);
      } else {
        await manager.query('insert into command_effect values ($1, $2)', [requestId, effect]);
      }
      return reply;
    };

  const run = (requestId: string, execute: Parameters<typeof runIdempotentCommand<{ effect: string }>>[0]['execute'], sender: string | null = 'daemon-a') =>
    runIdempotentCommand<{ effect: string }>({ dataSource, requestId, commandType: 'test.command', sender, execute });

  const effectsOf = async (requestId: string): Promise<string[]> =>
    (await dataSource.query<Array<{ effect: string }>>('select effect from command_effect where request_id = $1', [requestId])).map((row) => row.effect);

  it.each([
    ['recorded by the runner', false],
    ['kept alongside the command’s write', true],
  ])('answers a repeated request id (reply %s) with the first reply, and undoes the repeat’s effect', async (_, alongside) => {
    const requestId = uniqueNamespace('repeat');

    const first = await run(requestId, writing(requestId, 'first', { alongside }));
    const repeat = await run(requestId, writing(requestId, 'second', { alongside }));

    expect(first).toEqual({ ok: true, result: { effect: 'first' } });
    expect(repeat).toEqual({ ok: true, result: { effect: 'first' }, alreadyApplied: true });
    expect(await effectsOf(requestId)).toEqual(['first']);
  });

  it('answers a repeat whose try throws a refusal (a lease no longer held) with the stored reply', async () => {
    const requestId = uniqueNamespace('refused-repeat');
    await run(requestId, writing(requestId, 'first'));

    const repeat = await run(requestId, () => Promise.reject(new Error('the lease has moved on')));

    expect(repeat).toEqual({ ok: true, result: { effect: 'first' }, alreadyApplied: true });
  });

  it('still throws the refusal of a request id never seen', async () => {
    await expect(run(uniqueNamespace('refused'), () => Promise.reject(new Error('the lease has moved on')))).rejects.toThrow('the lease has moved on');
  });

  it('answers a repeat whose try would give an unkept (retryable) failure with the stored reply', async () => {
    const requestId = uniqueNamespace('unkept-repeat');
    await run(requestId, writing(requestId, 'first'));

    const repeat = await run(requestId, () => Promise.resolve(commandFailure('unavailable', 'try again', true)));

    expect(repeat).toEqual({ ok: true, result: { effect: 'first' }, alreadyApplied: true });
  });

  it('gives a stored reply to its own sender only: the same request id from another is refused and learns nothing', async () => {
    const requestId = uniqueNamespace('other-sender');
    await run(requestId, writing(requestId, 'first'), 'daemon-a');

    const fromAnother = await run(requestId, writing(requestId, 'theirs'), 'daemon-b');

    expect(fromAnother).toEqual(commandFailure('sender_mismatch', 'this request id was used by another sender'));
    expect(await effectsOf(requestId)).toEqual(['first']);
  });

  it('lets tries of one request id that race apply it once', async () => {
    const requestId = uniqueNamespace('race');

    const replies = await Promise.all(Array.from({ length: 4 }, (_, index) => run(requestId, writing(requestId, `try-${index}`, { alongside: true }))));

    expect(await effectsOf(requestId)).toHaveLength(1);
    const [applied] = await effectsOf(requestId);
    expect(replies.filter((reply) => !(reply.ok && reply.alreadyApplied))).toEqual([{ ok: true, result: { effect: applied } }]);
    expect(replies.filter((reply) => reply.ok && reply.alreadyApplied)).toHaveLength(3);
  });
});
