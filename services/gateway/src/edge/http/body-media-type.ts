import type { IncomingHttpHeaders } from 'node:http';

/** The kinds of request body a route reads: JSON everywhere, form fields too where a route says so. */
export type BodyMediaType = 'json' | 'form';

export const BODY_MEDIA_TYPE_NAMES: Readonly<Record<BodyMediaType, string>> = {
  json: 'application/json (or a +json type)',
  form: 'application/x-www-form-urlencoded',
};

// RFC 6838 type and subtype characters; a structured `+json` suffix is JSON (`application/merge-patch+json`).
const JSON_SUFFIX_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*\+json$/;

/** The media type of a `Content-Type` header, lower-cased and without parameters (`; charset=utf-8`). */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType ? mediaType : undefined;
}

export function isBodyMediaType(kind: BodyMediaType, contentType: string | undefined): boolean {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === undefined) return false;
  return kind === 'json' ? mediaType === 'application/json' || JSON_SUFFIX_PATTERN.test(mediaType) : mediaType === 'application/x-www-form-urlencoded';
}

/**
 * Whether the request carries a body: chunked, or a `Content-Length` above 0. A bodiless POST
 * (`curl -X POST`, `fetch` without a body: `Content-Length: 0`) has none, whatever its type says.
 */
export function hasRequestBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length'] ?? '0');
  return Number.isNaN(length) || length > 0;
}
