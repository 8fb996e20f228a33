import { Module } from '@nestjs/common';
import { ApiTokensRepository } from './api-tokens.repository';
import { ApiTokensService } from './api-tokens.service';

@Module({
  providers: [ApiTokensRepository, ApiTokensService],
  exports: [ApiTokensRepository, ApiTokensService],
})
export class TokensModule {}
