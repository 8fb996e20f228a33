import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { UsageController } from './usage.controller';
import { UsageRepository } from './usage.repository';

@Module({
  imports: [AuthModule],
  controllers: [UsageController],
  providers: [UsageRepository],
})
export class UsageModule {}
