import { Module } from '@nestjs/common';
import { AccessGuard } from './access.guard';
import { ApiTokenVerifier } from './api-token.verifier';
import { BootstrapTokenSeeder } from './bootstrap-token.seeder';
import { CallerAuthenticator } from './caller.authenticator';
import { TokenRevocations } from './token-revocations';
import { TaskTokenVerifier } from './task-token.verifier';
import { QueueCommandsClient } from '../../workspace/tasks/queue-commands.client';
import { PeopleModule } from '../../workspace/people/people.module';

/** One instance of each for the whole gateway: the failure counts and the revocation signal are shared by REST and the WebSocket. */
@Module({
  // Task tokens are the queue's: they are checked by asking it (QueueCommandsClient holds no state).
  imports: [PeopleModule],
  providers: [ApiTokenVerifier, TaskTokenVerifier, QueueCommandsClient, CallerAuthenticator, AccessGuard, BootstrapTokenSeeder, TokenRevocations],
  exports: [ApiTokenVerifier, CallerAuthenticator, AccessGuard, TokenRevocations, PeopleModule],
})
export class AuthModule {}
