import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reconnect grace (issue 19): when the runtime's current run of heartbeats began. A daemon back from
 * a disconnect could not renew while away, so its missed deadlines are judged only once it has been
 * heard for a whole deadline window again. Null (rows from before) counts as heard for long.
 */
export class RuntimeOnlineSince1795991600000 implements MigrationInterface {
  readonly name = 'RuntimeOnlineSince1795991600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table runtime_presence add column online_since timestamptz null');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table runtime_presence drop column online_since');
  }
}
