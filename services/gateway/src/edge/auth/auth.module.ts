import { Module } from '@nestjs/common';
import { ApiTokenGuard } from './api-token.guard';
import { ApiTokenVerifier } from './api-token.verifier';
import { BootstrapTokenSeeder } from './bootstrap-token.seeder';

@Module({
  providers: [ApiTokenVerifier, ApiTokenGuard, BootstrapTokenSeeder],
  exports: [ApiTokenVerifier, ApiTokenGuard],
})
export class AuthModule {}
