import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage } from 'node:http';
import { REST_MODULES } from './rest/rest.modules';
import { isBodyMediaType } from './http/body-media-type';
import { setUpOpenApi } from './http/openapi';
import { defaultWebRoot, serveWebApp } from './http/web-app.static';
import { traceRestRequests } from './http/rest-request-tracing.middleware';

/** Prompts and agent instructions run to 100k characters each; bodies stay well under this. */
export const JSON_BODY_LIMIT = '1mb';

/**
 * The gateway's `configureApp` hook: runs before the application listens. The parsers read the
 * very types `BodyMediaTypeGuard` lets through (`+json` included), so an accepted body is a parsed one.
 */
export function configureGatewayApp(app: INestApplication, webRoot?: string): void {
  const express = app as NestExpressApplication;
  // First: the request's span covers the parsers and guards too.
  traceRestRequests(express);
  express.useBodyParser('json', { limit: JSON_BODY_LIMIT, type: (request: IncomingMessage) => isBodyMediaType('json', request.headers['content-type']) });
  // Form fields: only routes that say so accept them (the autopilot webhook); the guard refuses them elsewhere.
  express.useBodyParser('urlencoded', { extended: true, type: (request: IncomingMessage) => isBodyMediaType('form', request.headers['content-type']) });
  setUpOpenApi(app, REST_MODULES);
  serveWebApp(express, webRoot ?? defaultWebRoot());
}
