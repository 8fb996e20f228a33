import { Module } from '@nestjs/common';
import { WorkspaceNoticesModule } from '../notices/workspace-notices.publisher';
import { TriggersModule } from '../triggers/triggers.module';
import { ChatRepository } from './chat.repository';
import { ChatService } from './chat.service';

@Module({
  imports: [TriggersModule, WorkspaceNoticesModule],
  providers: [ChatRepository, ChatService],
  exports: [ChatService],
})
export class ChatModule {}
