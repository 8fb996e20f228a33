import { setClause } from './update-set';

describe('setClause', () => {
  it('sets only the fields present, numbering parameters from the first one given, and always updated_at', () => {
    expect(
      setClause(
        [
          { column: 'name', value: 'New' },
          { column: 'model', value: undefined },
          { column: 'description', value: null },
          { column: 'fixed_args', value: ['a'], json: true },
        ],
        3,
      ),
    ).toEqual({ sql: 'name = $3, description = $4, fixed_args = $5::jsonb, updated_at = now()', parameters: ['New', null, '["a"]'] });
  });
});
