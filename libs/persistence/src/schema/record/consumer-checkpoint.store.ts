import type { SqlRunner } from '../sql-runner';

/**
 * A projection's checkpoint: the stream sequence it committed up to. Save it in the transaction
 * of the rows it covers, so both commit or neither does.
 */
export async function readConsumerCheckpoint(runner: SqlRunner, consumerName: string): Promise<number | undefined> {
  const rows = await runner.query<Array<{ stream_sequence: string | number }>>('select stream_sequence from consumer_checkpoint where consumer_name = $1', [consumerName]);
  const value = rows[0]?.stream_sequence;
  return value === undefined ? undefined : Number(value);
}

/** A high-water mark: a redelivered older message never moves it back. */
export async function saveConsumerCheckpoint(runner: SqlRunner, options: { readonly consumerName: string; readonly streamSequence: number }): Promise<void> {
  await runner.query(
    `insert into consumer_checkpoint (consumer_name, stream_sequence, updated_at) values ($1, $2, now())
     on conflict (consumer_name) do update set
       stream_sequence = greatest(consumer_checkpoint.stream_sequence, excluded.stream_sequence),
       updated_at = now()`,
    [options.consumerName, options.streamSequence],
  );
}

/** Forgets a projection's position, for a rebuild that replays its stream from the start. */
export async function deleteConsumerCheckpoint(runner: SqlRunner, consumerName: string): Promise<void> {
  await runner.query('delete from consumer_checkpoint where consumer_name = $1', [consumerName]);
}
