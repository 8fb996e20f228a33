import { Module } from '@nestjs/common';
import { BusRevocations } from './bus-revocations';
import { DaemonEnrollmentService } from './daemon-enrollment.service';
import { DaemonsRepository } from './daemons.repository';

@Module({
  providers: [DaemonsRepository, BusRevocations, DaemonEnrollmentService],
  exports: [DaemonEnrollmentService],
})
export class DaemonsModule {}
