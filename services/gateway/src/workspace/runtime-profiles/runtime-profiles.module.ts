import { Module } from '@nestjs/common';
import { RuntimeProfilesDistributor } from './runtime-profiles.distributor';
import { RuntimeProfilesRepository } from './runtime-profiles.repository';

@Module({
  providers: [RuntimeProfilesRepository, RuntimeProfilesDistributor],
  exports: [RuntimeProfilesRepository, RuntimeProfilesDistributor],
})
export class RuntimeProfilesModule {}
