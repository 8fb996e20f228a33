import { Module } from '@nestjs/common';
import { UsageRepository } from './usage.repository';

@Module({
  providers: [UsageRepository],
  exports: [UsageRepository],
})
export class UsageModule {}
