import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RuntimeProfilesController } from './runtime-profiles.controller';
import { RuntimeProfilesRepository } from './runtime-profiles.repository';

@Module({
  imports: [AuthModule],
  controllers: [RuntimeProfilesController],
  providers: [RuntimeProfilesRepository],
})
export class RuntimeProfilesModule {}
