import { Module } from '@nestjs/common';
import { SecretsRepository } from './secrets.repository';
import { SecretsResealer } from './secrets.resealer';

@Module({
  providers: [SecretsRepository, SecretsResealer],
  exports: [SecretsRepository],
})
export class SecretsModule {}
