import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Hands a handler's error to the transport as it was thrown. Nest's default RPC filter replaces
 * every error but `RpcException` with `{ status: 'error', message: 'Internal server error' }`,
 * which would erase what the transport decides by: `isRetryable` (nak or dead-letter) and
 * `ReplyError` codes (the reply).
 */
@Catch()
export class HandlerErrorPassThroughFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
