import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../../workspace/common/api-error';
import { BODY_MEDIA_TYPE_NAMES, hasRequestBody, isBodyMediaType, mediaTypeOf, type BodyMediaType } from './body-media-type';

const ACCEPTED_BODY_TYPES = 'switchyard:accepted-body-types';
const DEFAULT_BODY_TYPES: readonly BodyMediaType[] = ['json'];

/** A route that reads more than JSON (the autopilot webhook also takes form fields, as it always has). */
export const AcceptsBodyTypes = (...types: [BodyMediaType, ...BodyMediaType[]]): MethodDecorator => SetMetadata(ACCEPTED_BODY_TYPES, types);

/**
 * The one media-type check of the REST API (a global guard, so it runs before authentication and
 * every route's own parsing): a request with a body must declare a type the route reads, JSON unless
 * the route says otherwise (`AcceptsBodyTypes`); anything else is 415 `unsupported_media_type`,
 * never the misleading validation error an unparsed body would give. Bodiless requests pass.
 */
@Injectable()
export class BodyMediaTypeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const { headers } = context.switchToHttp().getRequest<{ readonly headers: IncomingHttpHeaders }>();
    if (!hasRequestBody(headers)) return true;
    const accepted = this.reflector.get<readonly BodyMediaType[] | undefined>(ACCEPTED_BODY_TYPES, context.getHandler()) ?? DEFAULT_BODY_TYPES;
    const contentType = headers['content-type'];
    if (accepted.some((kind) => isBodyMediaType(kind, contentType))) return true;
    const names = accepted.map((kind) => BODY_MEDIA_TYPE_NAMES[kind]);
    const sent = mediaTypeOf(contentType);
    throw new ApiError('unsupported_media_type', `the body must be sent as Content-Type: ${names.join(' or ')}; got ${sent ?? 'no Content-Type'}`, {
      accepted: names,
      received: sent ?? null,
    });
  }
}
