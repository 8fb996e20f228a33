import { applyDecorators, type INestApplication } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiBody, ApiQuery, ApiResponse, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { z } from 'zod';
import { API_ERROR_CODES, type ApiErrorCode } from '../../workspace/common/api-error';

export const OPENAPI_UI_PATH = 'api/docs';
export const OPENAPI_JSON_PATH = 'api/docs-json';

/** An OpenAPI 3.0 schema derived from a zod schema, so the document and the validation never drift. */
export function openApiSchemaOf(schema: z.ZodType, io: 'input' | 'output'): SchemaObject {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' });
  return json as SchemaObject;
}

const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(API_ERROR_CODES) as [ApiErrorCode, ...ApiErrorCode[]]),
    message: z.string(),
    details: z.unknown().optional().describe('e.g. `issues` (path + message per problem) or `accepted` values'),
  }),
});

/** A JSON request body validated by `schema`; a body of another type is 415 (`BodyMediaTypeGuard`). */
export function ApiJsonBody(schema: z.ZodType, description?: string): MethodDecorator {
  return applyDecorators(
    ApiBody({ schema: openApiSchemaOf(schema, 'input'), required: true, ...(description ? { description } : {}) }),
    errorResponse(API_ERROR_CODES.unsupported_media_type.status, ['unsupported_media_type']),
  );
}

export function ApiJsonResponse(status: number, schema: z.ZodType, description: string): MethodDecorator {
  return ApiResponse({ status, description, schema: openApiSchemaOf(schema, 'output') });
}

export function ApiNoContentResponse(description: string): MethodDecorator {
  return ApiResponse({ status: 204, description });
}

function errorResponse(status: number, codes: readonly ApiErrorCode[]): MethodDecorator {
  const description = codes.map((code) => `\`${code}\`: ${API_ERROR_CODES[code].description}`).join(' ');
  return ApiResponse({ status, description, schema: openApiSchemaOf(errorBodySchema, 'output') });
}

/** One documented response per status the route can answer with, naming its codes; 401 and 429 (the token guard's) always. */
export function ApiErrorResponses(...codes: ApiErrorCode[]): MethodDecorator {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of ['unauthenticated', 'auth_rate_limited', ...codes] as ApiErrorCode[]) {
    const status = API_ERROR_CODES[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  return applyDecorators(...[...byStatus].map(([status, statusCodes]) => errorResponse(status, statusCodes)));
}

/** Documents every field of a query schema (a zod object) as a query parameter. */
export function ApiQueryFrom(schema: z.ZodObject): MethodDecorator {
  const json = openApiSchemaOf(schema, 'input') as { properties?: Record<string, SchemaObject>; required?: string[] };
  return applyDecorators(
    ...Object.entries(json.properties ?? {}).map(([name, property]) =>
      ApiQuery({
        name,
        required: json.required?.includes(name) ?? false,
        schema: property,
        ...(typeof property.description === 'string' ? { description: property.description } : {}),
      }),
    ),
  );
}

/** Every REST route takes `Authorization: Bearer <API token>` (and a signed-in session's cookie, with its CSRF header). */
export const ApiTokenAuth = (): ClassDecorator & MethodDecorator => ApiBearerAuth('api-token');

/** Routes only a browser session may call (the session cookie, with its `X-CSRF-Token`). */
export const ApiSessionAuth = (): ClassDecorator & MethodDecorator => ApiCookieAuth('session');

/** Serves the OpenAPI document of the given modules' controllers at `/api/docs` (UI) and `/api/docs-json`. */
export function setUpOpenApi(app: INestApplication, modules: ReadonlyArray<new (...args: never[]) => unknown>): void {
  const config = new DocumentBuilder()
    .setTitle('Switchyard API')
    .setDescription(
      'REST API of the Switchyard gateway. A personal API token acts in its own workspace; a signed-in session (cookie `switchyard_session`, ' +
        'with `X-CSRF-Token` on unsafe methods) in the one `X-Switchyard-Workspace` names. Every route needs a permission of the role matrix ' +
        '(docs/architecture/people.md). Errors are `{ "error": { "code", "message", "details"? } }`.',
    )
    .setVersion('0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token: `sy_...`' }, 'api-token')
    .addCookieAuth('switchyard_session', { type: 'apiKey', in: 'cookie', name: 'switchyard_session', description: 'A signed-in session (POST /api/auth/sign-in)' }, 'session')
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: [...modules] });
  SwaggerModule.setup(OPENAPI_UI_PATH, app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH, yamlDocumentUrl: 'api/docs-yaml' });
}
