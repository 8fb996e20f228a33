import { Module } from '@nestjs/common';

/** The gateway service's own providers and controllers; the platform (NATS, health, database) comes from serviceRootModule. */
@Module({})
export class GatewayModule {}
