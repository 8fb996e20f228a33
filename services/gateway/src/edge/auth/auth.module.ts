import { Module } from '@nestjs/common';
import { ApiTokenAuthenticator } from './api-token.authenticator';
import { ApiTokenGuard } from './api-token.guard';
import { ApiTokenVerifier } from './api-token.verifier';
import { BootstrapTokenSeeder } from './bootstrap-token.seeder';
import { TokenRevocations } from './token-revocations';
import { TaskTokenVerifier } from './task-token.verifier';
import { QueueCommandsClient } from '../../workspace/tasks/queue-commands.client';

/** One instance of each for the whole gateway: the failure counts and the revocation signal are shared by REST and the WebSocket. */
@Module({
  // Task tokens are the queue's: they are checked by asking it (QueueCommandsClient holds no state).
  providers: [ApiTokenVerifier, TaskTokenVerifier, QueueCommandsClient, ApiTokenAuthenticator, ApiTokenGuard, BootstrapTokenSeeder, TokenRevocations],
  exports: [ApiTokenVerifier, ApiTokenAuthenticator, ApiTokenGuard, TokenRevocations],
})
export class AuthModule {}
