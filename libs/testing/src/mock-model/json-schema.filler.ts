import type { JsonSchema } from './conversation.types';

/**
 * Builds a value that satisfies the common subset of JSON schema the CLIs send (object, array,
 * string, number, integer, boolean, enum, const, anyOf/oneOf/allOf, nullable unions). Property
 * names steer the filler so side calls get plausible answers, e.g. Gemini CLI's router
 * (`complexity_reasoning`, `complexity_score >= 1`) and next-speaker check (`next_speaker: "user"`).
 */
export function fillJsonSchema(schema: JsonSchema | undefined, options: { propertyName?: string; onlyRequired?: boolean } = {}): unknown {
  return fillValue({ schema, propertyName: options.propertyName ?? '', onlyRequired: options.onlyRequired ?? false, depth: 0 });
}

/** Lower-cased schema type names, whether given as a string or an array (Gemini uses `STRING`). */
export function schemaTypes(schema: JsonSchema | undefined): string[] {
  const type = schema?.['type'];
  if (typeof type === 'string') return [type.toLowerCase()];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.toLowerCase());
  if (schema?.['properties'] !== undefined) return ['object'];
  if (schema?.['items'] !== undefined) return ['array'];
  return [];
}

export function schemaProperties(schema: JsonSchema | undefined): { [name: string]: JsonSchema } {
  const properties = schema?.['properties'];
  return isSchema(properties) ? (properties as { [name: string]: JsonSchema }) : {};
}

export function schemaRequired(schema: JsonSchema | undefined): string[] {
  const required = schema?.['required'];
  return Array.isArray(required) ? required.filter((entry): entry is string => typeof entry === 'string') : [];
}

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAXIMUM_DEPTH = 8;

interface FillRequest {
  readonly schema: JsonSchema | undefined;
  readonly propertyName: string;
  readonly onlyRequired: boolean;
  readonly depth: number;
}

function fillValue(request: FillRequest): unknown {
  const { schema, propertyName } = request;
  if (schema === undefined || request.depth > MAXIMUM_DEPTH) return null;
  if ('const' in schema) return schema['const'];
  const enumeration = schema['enum'];
  if (Array.isArray(enumeration) && enumeration.length > 0) return chooseFromEnumeration(enumeration, propertyName);
  const alternative = firstAlternative(schema);
  if (alternative !== undefined) return fillValue({ ...request, schema: alternative, depth: request.depth + 1 });
  const types = schemaTypes(schema).filter((type) => type !== 'null');
  switch (types[0]) {
    case 'object':
      return fillObject(request);
    case 'array':
      return fillArray(request);
    case 'string':
      return fillString(schema, propertyName);
    case 'integer':
    case 'number':
      return fillNumber(schema, propertyName, types[0] === 'integer');
    case 'boolean':
      return false;
    default:
      return types.length === 0 && schemaTypes(schema).includes('null') ? null : fillString(schema, propertyName);
  }
}

function chooseFromEnumeration(enumeration: unknown[], propertyName: string): unknown {
  // Hand the turn back to the user whenever a schema asks who speaks next, so no CLI loops.
  if (/speaker/i.test(propertyName) && enumeration.includes('user')) return 'user';
  return enumeration[0];
}

function firstAlternative(schema: JsonSchema): JsonSchema | undefined {
  const allOf = schema['allOf'];
  if (Array.isArray(allOf) && allOf.some(isSchema)) return allOf.filter(isSchema).reduce<JsonSchema>((merged, part) => mergeSchemas(merged, part), {});
  for (const key of ['anyOf', 'oneOf']) {
    const alternatives = schema[key];
    if (!Array.isArray(alternatives)) continue;
    const chosen = alternatives.filter(isSchema).find((candidate) => !isNullOnly(candidate));
    if (chosen !== undefined) return chosen;
  }
  return undefined;
}

function isNullOnly(schema: JsonSchema): boolean {
  const types = schemaTypes(schema);
  return types.length > 0 && types.every((type) => type === 'null');
}

function mergeSchemas(left: JsonSchema, right: JsonSchema): JsonSchema {
  return {
    ...left,
    ...right,
    properties: { ...schemaProperties(left), ...schemaProperties(right) },
    required: [...schemaRequired(left), ...schemaRequired(right)],
  };
}

function fillObject(request: FillRequest): { [key: string]: unknown } {
  const required = new Set(schemaRequired(request.schema));
  const result: { [key: string]: unknown } = {};
  for (const [name, propertySchema] of Object.entries(schemaProperties(request.schema))) {
    if (request.onlyRequired && !required.has(name)) continue;
    result[name] = fillValue({ schema: propertySchema, propertyName: name, onlyRequired: request.onlyRequired, depth: request.depth + 1 });
  }
  return result;
}

function fillArray(request: FillRequest): unknown[] {
  const minimumItems = numberOrUndefined(request.schema?.['minItems']) ?? 0;
  const items = request.schema?.['items'];
  const itemSchema = isSchema(items) ? items : undefined;
  return Array.from({ length: minimumItems }, () =>
    fillValue({ schema: itemSchema, propertyName: request.propertyName, onlyRequired: request.onlyRequired, depth: request.depth + 1 }),
  );
}

function fillString(schema: JsonSchema, propertyName: string): string {
  const text = /reason/i.test(propertyName)
    ? 'The mock model judges this request simple.'
    : /description|summary|title/i.test(propertyName)
      ? 'Mock model tool call'
      : /dir|path|cwd/i.test(propertyName)
        ? '.'
        : 'mock';
  const minimumLength = numberOrUndefined(schema['minLength']) ?? 0;
  return text.length >= minimumLength ? text : text.padEnd(minimumLength, '.');
}

function fillNumber(schema: JsonSchema, propertyName: string, integer: boolean): number {
  const minimum = numberOrUndefined(schema['minimum']);
  const exclusiveMinimum = numberOrUndefined(schema['exclusiveMinimum']);
  const maximum = numberOrUndefined(schema['maximum']);
  let value = /timeout/i.test(propertyName) ? 120_000 : 1;
  if (minimum !== undefined) value = Math.max(value, minimum);
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) value = exclusiveMinimum + 1;
  if (maximum !== undefined) value = Math.min(value, maximum);
  return integer ? Math.ceil(value) : value;
}

function numberOrUndefined(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  // Gemini's OpenAPI-style schemas send some limits as strings.
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}
