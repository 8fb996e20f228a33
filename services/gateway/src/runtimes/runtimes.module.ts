import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RuntimeViewProjector } from './runtime-view.projector';
import { RuntimeViewRepository } from './runtime-view.repository';
import { RuntimesController } from './runtimes.controller';

@Module({
  imports: [AuthModule],
  controllers: [RuntimesController],
  providers: [RuntimeViewRepository, RuntimeViewProjector],
  exports: [RuntimeViewRepository],
})
export class RuntimesModule {}
