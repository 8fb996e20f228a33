import { Global, Module } from '@nestjs/common';
import { AuditTrail } from './audit.trail';

/** One audit trail for the whole gateway: every module that changes access records through it. */
@Global()
@Module({ providers: [AuditTrail], exports: [AuditTrail] })
export class AuditModule {}
