import { Module } from '@nestjs/common';
import { DaemonsModule } from '../daemons/daemons.module';
import { RuntimeViewProjector } from './runtime-view.projector';
import { RuntimeViewRepository } from './runtime-view.repository';

@Module({
  imports: [DaemonsModule],
  // RuntimeViewProjector is a message handler (@EventPattern), run by the messaging transport.
  controllers: [RuntimeViewProjector],
  providers: [RuntimeViewRepository],
  exports: [RuntimeViewRepository],
})
export class RuntimesModule {}
