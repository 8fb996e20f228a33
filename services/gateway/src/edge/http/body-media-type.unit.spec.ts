import { hasRequestBody, isBodyMediaType, mediaTypeOf } from './body-media-type';

describe('request body media types', () => {
  it('reads JSON as application/json or any +json type, parameters and case aside', () => {
    for (const contentType of ['application/json', 'Application/JSON; charset=utf-8', 'application/merge-patch+json', 'application/vnd.api+json ; x=1']) {
      expect({ contentType, json: isBodyMediaType('json', contentType) }).toEqual({ contentType, json: true });
    }
    for (const contentType of [undefined, '', 'text/plain', 'text/json-ish', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', '+json']) {
      expect({ contentType, json: isBodyMediaType('json', contentType) }).toEqual({ contentType, json: false });
    }
  });

  it('reads form fields only as application/x-www-form-urlencoded', () => {
    expect(isBodyMediaType('form', 'application/x-www-form-urlencoded; charset=UTF-8')).toBe(true);
    expect(isBodyMediaType('form', 'multipart/form-data; boundary=x')).toBe(false);
    expect(isBodyMediaType('form', 'application/json')).toBe(false);
  });

  it('names the media type without its parameters', () => {
    expect(mediaTypeOf('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(mediaTypeOf(' ; charset=utf-8')).toBeUndefined();
    expect(mediaTypeOf(undefined)).toBeUndefined();
  });

  it('counts a body when chunked or longer than 0 bytes, not a bodiless POST', () => {
    expect(hasRequestBody({ 'content-length': '12' })).toBe(true);
    expect(hasRequestBody({ 'transfer-encoding': 'chunked' })).toBe(true);
    expect(hasRequestBody({ 'content-length': '0', 'content-type': 'text/plain' })).toBe(false);
    expect(hasRequestBody({})).toBe(false);
  });
});
