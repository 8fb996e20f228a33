import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { TaskTriggersRepository } from './task-triggers.repository';
import { TriggerDispatcher } from './trigger.dispatcher';

/** Issue and chat triggers → tasks: written with what triggered them, then sent to the queue. */
@Module({
  imports: [TasksModule],
  providers: [TaskTriggersRepository, TriggerDispatcher],
  exports: [TaskTriggersRepository, TriggerDispatcher, TasksModule],
})
export class TriggersModule {}
