import { Column, Entity, PrimaryColumn } from 'typeorm';
import { safeIntegerTransformer } from '../../entities/safe-integer.transformer';

/** Where a projector is in its JetStream stream; written in the same transaction as its rows. */
@Entity({ name: 'consumer_checkpoint' })
export class ConsumerCheckpointEntity {
  @PrimaryColumn({ name: 'consumer_name', type: 'text' })
  consumerName!: string;

  @Column({ name: 'stream_sequence', type: 'bigint', transformer: safeIntegerTransformer })
  streamSequence!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
