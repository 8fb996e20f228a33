import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TriggersModule } from '../triggers/triggers.module';
import { ChatController } from './chat.controller';
import { ChatRepository } from './chat.repository';
import { ChatService } from './chat.service';

@Module({
  imports: [AuthModule, TriggersModule],
  controllers: [ChatController],
  providers: [ChatRepository, ChatService],
})
export class ChatModule {}
