import { Module } from '@nestjs/common';
import { RuntimeProfilesRepository } from './runtime-profiles.repository';

@Module({
  providers: [RuntimeProfilesRepository],
  exports: [RuntimeProfilesRepository],
})
export class RuntimeProfilesModule {}
