import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who sent each processed command: the daemon id of a daemon-sent command (the last token of its
 * subject), null for a service's. A repeated request id is answered from the record only for the
 * sender that made it. Rows from before this column have no sender.
 */
export class ProcessedCommandSender1795989700000 implements MigrationInterface {
  readonly name = 'ProcessedCommandSender1795989700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table processed_command add column sender text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table processed_command drop column sender');
  }
}
