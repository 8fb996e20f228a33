import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ApiTokensRepository } from './api-tokens.repository';
import { TokensController } from './tokens.controller';

@Module({
  imports: [AuthModule],
  controllers: [TokensController],
  providers: [ApiTokensRepository],
})
export class TokensModule {}
