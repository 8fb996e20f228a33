import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module';
import { TriggersModule } from '../triggers/triggers.module';
import { ChildDoneConsumer } from './child-done.consumer';
import { ChildDoneNotifier } from './child-done.notifier';
import { ChildDoneRepository } from './child-done.repository';

/** A child issue's finished task notifies its parent (`child_done`). No routes: its controller is a message handler. */
@Module({
  imports: [IssuesModule, TriggersModule],
  providers: [ChildDoneRepository, ChildDoneNotifier],
  controllers: [ChildDoneConsumer],
})
export class ChildIssuesModule {}
