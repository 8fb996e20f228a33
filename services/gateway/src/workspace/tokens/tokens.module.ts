import { Module } from '@nestjs/common';
import { ApiTokensRepository } from './api-tokens.repository';

@Module({
  providers: [ApiTokensRepository],
  exports: [ApiTokensRepository],
})
export class TokensModule {}
