import { Module } from '@nestjs/common';
import { ApiTokenAuthenticator } from './api-token.authenticator';
import { ApiTokenGuard } from './api-token.guard';
import { ApiTokenVerifier } from './api-token.verifier';
import { BootstrapTokenSeeder } from './bootstrap-token.seeder';
import { TokenRevocations } from './token-revocations';

/** One instance of each for the whole gateway: the failure counts and the revocation signal are shared by REST and the WebSocket. */
@Module({
  providers: [ApiTokenVerifier, ApiTokenAuthenticator, ApiTokenGuard, BootstrapTokenSeeder, TokenRevocations],
  exports: [ApiTokenVerifier, ApiTokenAuthenticator, ApiTokenGuard, TokenRevocations],
})
export class AuthModule {}
