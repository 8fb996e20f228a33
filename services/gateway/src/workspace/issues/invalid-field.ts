import { ApiError } from '../common/api-error';

/** A field that parsed but names nothing usable (e.g. an issue of another workspace): 400, the same shape as a zod failure. */
export function invalidField(path: string, message: string): ApiError {
  return new ApiError('validation_failed', `invalid body: ${path}: ${message}`, { issues: [{ path, message }] });
}
