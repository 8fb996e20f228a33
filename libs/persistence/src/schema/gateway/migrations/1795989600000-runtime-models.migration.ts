import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The model ids each runtime's CLI listed at registration, for the gateway's runtime view. */
export class RuntimeModels1795989600000 implements MigrationInterface {
  readonly name = 'RuntimeModels1795989600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`alter table runtime_view add column models jsonb not null default '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('alter table runtime_view drop column models');
  }
}
