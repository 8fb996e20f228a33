import { fillJsonSchema } from './json-schema.filler';

describe('fillJsonSchema', () => {
  it('answers Gemini CLI\'s numeric router schema with a score of at least 1', () => {
    const value = fillJsonSchema({
      type: 'object',
      properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer', minimum: 1, maximum: 100 } },
      required: ['complexity_reasoning', 'complexity_score'],
    });
    expect(value).toEqual({ complexity_reasoning: expect.stringMatching(/\w/), complexity_score: 1 });
  });

  it('reads Gemini\'s upper-case OpenAPI types and picks the first enum value', () => {
    const value = fillJsonSchema({ type: 'OBJECT', properties: { reasoning: { type: 'STRING' }, model_choice: { type: 'STRING', enum: ['flash', 'pro'] } } });
    expect(value).toEqual({ reasoning: expect.any(String), model_choice: 'flash' });
  });

  it('hands the next turn to the user when asked who speaks next', () => {
    expect(fillJsonSchema({ type: 'object', properties: { next_speaker: { type: 'string', enum: ['model', 'user'] } } })).toEqual({ next_speaker: 'user' });
  });

  it('honours minimum, exclusiveMinimum, maximum, minItems, minLength, const and nullable unions', () => {
    expect(fillJsonSchema({ type: 'number', minimum: 5 })).toBe(5);
    expect(fillJsonSchema({ type: 'integer', exclusiveMinimum: 3 })).toBe(4);
    expect(fillJsonSchema({ type: 'number', maximum: 0 })).toBe(0);
    expect(fillJsonSchema({ type: 'array', items: { type: 'boolean' }, minItems: 2 })).toEqual([false, false]);
    expect(fillJsonSchema({ type: 'string', minLength: 10 })).toHaveLength(10);
    expect(fillJsonSchema({ const: 'fixed' })).toBe('fixed');
    expect(fillJsonSchema({ anyOf: [{ type: 'null' }, { type: 'integer' }] })).toBe(1);
    expect(fillJsonSchema({ type: ['null', 'boolean'] })).toBe(false);
    expect(fillJsonSchema({ allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'integer' } } }] })).toEqual({ a: 'mock', b: 1 });
  });

  it('fills only required properties when asked', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['b'] };
    expect(fillJsonSchema(schema, { onlyRequired: true })).toEqual({ b: false });
  });

  it('stops at cyclic depth instead of recursing forever', () => {
    const node: { [key: string]: unknown } = { type: 'object', properties: {} };
    (node['properties'] as { [key: string]: unknown })['child'] = node;
    expect(() => JSON.stringify(fillJsonSchema(node))).not.toThrow();
  });
});
