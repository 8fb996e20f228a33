import { Module } from '@nestjs/common';

/** The daemon service's own providers and controllers; the platform (NATS, health) comes from serviceRootModule. */
@Module({})
export class DaemonModule {}
