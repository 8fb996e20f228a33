import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { REST_MODULES } from '../rest.modules';
import { setUpOpenApi } from './openapi';

/** Prompts and agent instructions run to 100k characters each; bodies stay well under this. */
export const JSON_BODY_LIMIT = '1mb';

/** The gateway's `configureApp` hook: runs before the application listens. */
export function configureGatewayApp(app: INestApplication): void {
  (app as NestExpressApplication).useBodyParser('json', { limit: JSON_BODY_LIMIT });
  setUpOpenApi(app, REST_MODULES);
}
