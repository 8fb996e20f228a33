import { Module } from '@nestjs/common';
import { WorkspaceNoticesModule } from '../notices/workspace-notices.publisher';
import { TasksModule } from '../tasks/tasks.module';
import { ChatReplyConsumer } from './chat-reply.consumer';
import { ChatReplyWriter } from './chat-reply.writer';

/** A finished chat task answers in its session as an `agent` message. No routes: its controller is a message handler. */
@Module({
  imports: [WorkspaceNoticesModule, TasksModule],
  providers: [ChatReplyWriter],
  controllers: [ChatReplyConsumer],
})
export class ChatRepliesModule {}
