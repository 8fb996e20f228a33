import { Module } from '@nestjs/common';
import { BusRevocations } from './bus-revocations';
import { DaemonEnrollmentService } from './daemon-enrollment.service';
import { DaemonsRepository } from './daemons.repository';

@Module({
  providers: [DaemonsRepository, BusRevocations, DaemonEnrollmentService],
  // DaemonsRepository for its readers: the runtime view checks a daemon's enrolled workspace.
  exports: [DaemonEnrollmentService, DaemonsRepository],
})
export class DaemonsModule {}
