import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RuntimeViewProjector } from './runtime-view.projector';
import { RuntimeViewRepository } from './runtime-view.repository';
import { RuntimesController } from './runtimes.controller';

@Module({
  imports: [AuthModule],
  // RuntimeViewProjector is a message handler (@EventPattern), run by the messaging transport.
  controllers: [RuntimesController, RuntimeViewProjector],
  providers: [RuntimeViewRepository],
  exports: [RuntimeViewRepository],
})
export class RuntimesModule {}
