import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The reply already given to a command, so a retried request id gets the same answer. */
@Entity({ name: 'processed_command' })
export class ProcessedCommandEntity {
  @PrimaryColumn({ name: 'request_id', type: 'text' })
  requestId!: string;

  @Column({ name: 'command_type', type: 'text' })
  commandType!: string;

  /** The daemon that sent a daemon-sent command; null for a service's (and rows from before senders were kept). */
  @Column({ name: 'sender', type: 'text', nullable: true })
  sender!: string | null;

  @Column({ name: 'reply', type: 'jsonb' })
  reply!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
