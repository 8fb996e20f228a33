import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import { GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { ApiError, type ApiErrorBody, type ApiErrorCode } from '../../workspace/common/api-error';

interface StatusResponse {
  setHeader(name: string, value: string): void;
  status(code: number): { json(body: unknown): void };
}

/** Nest's own HTTP errors (guard, unknown route, unreadable body) in the API's shape. */
function codeOfHttpStatus(status: number): ApiErrorCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 415:
      // The body parser's refusal of a charset or content encoding it cannot read.
      return 'unsupported_media_type';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

function fromHttpException(exception: HttpException): { status: number; body: ApiErrorBody } {
  const status = exception.getStatus();
  const response = exception.getResponse();
  const declared = typeof response === 'object' && response !== null ? (response as { message?: unknown }) : {};
  const message = typeof declared.message === 'string' ? declared.message : exception.message;
  // The auth guard throws with its own code (`unauthenticated`); other Nest errors get one by status.
  const code = codeOfHttpStatus(status);
  return { status, body: { error: { code, message } } };
}

/** Errors of express middleware (the body parser) in the `http-errors` convention, e.g. 413. */
function fromMiddlewareError(exception: unknown): { status: number; body: ApiErrorBody } | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { status, expose, message } = exception as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true) return undefined;
  return { status, body: { error: { code: codeOfHttpStatus(status), message: typeof message === 'string' ? message : 'bad request' } } };
}

/**
 * The one exception filter of the gateway: every error leaves as `{ error: { code, message,
 * details? } }`; anything unexpected is logged and answered `internal` without its detail.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      this.logger.error({ event: 'unhandled_error', context: host.getType(), err: exception }, 'error outside an HTTP request');
      return;
    }
    const response = host.switchToHttp().getResponse<StatusResponse>();
    const { status, body } = this.describe(exception);
    if (exception instanceof ApiError) for (const [name, value] of Object.entries(exception.responseHeaders())) response.setHeader(name, value);
    response.status(status).json(body);
  }

  private describe(exception: unknown): { status: number; body: ApiErrorBody } {
    if (exception instanceof ApiError) {
      if (exception.status >= 500) this.logger.warn({ event: 'api_error', code: exception.code, err: exception }, exception.message);
      return { status: exception.status, body: exception.toBody() };
    }
    if (exception instanceof HttpException) return fromHttpException(exception);
    const middlewareError = fromMiddlewareError(exception);
    if (middlewareError) return middlewareError;
    this.logger.error({ event: 'api_unhandled_error', err: exception }, 'request failed with an unexpected error');
    return { status: 500, body: { error: { code: 'internal', message: 'internal error' } } };
  }
}
