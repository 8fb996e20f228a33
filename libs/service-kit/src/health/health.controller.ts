import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { READINESS_CHECKS, runReadinessChecks, type ReadinessCheck, type ReadinessReport } from './readiness-check';

const READINESS_TIMEOUT_MS = 2_000;

/** The one member of the platform response object this controller needs. */
interface StatusSettable {
  status(code: number): unknown;
}

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: its dependencies answer). */
@Controller()
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('healthz')
  @HttpCode(200)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) response: StatusSettable): Promise<ReadinessReport> {
    const report = await runReadinessChecks(this.checks, READINESS_TIMEOUT_MS);
    response.status(report.ready ? 200 : 503);
    return report;
  }
}
