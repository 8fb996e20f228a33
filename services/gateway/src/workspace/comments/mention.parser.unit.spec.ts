import { parseMentions } from './mention.parser';

describe('parseMentions', () => {
  const agents = [
    { id: 'a-fix', name: 'Fix' },
    { id: 'a-fixer', name: 'Fixer' },
    { id: 'a-review', name: 'Code Reviewer' },
  ];

  it('finds whole names after @, case-insensitively, in order of appearance, each once', () => {
    expect(parseMentions('@code reviewer please check, then @Fixer. Thanks @FIXER', agents)).toEqual(['a-review', 'a-fixer']);
  });

  it('prefers the longest name and needs the name to end there', () => {
    expect(parseMentions('@Fix it', agents)).toEqual(['a-fix']);
    expect(parseMentions('@Fixers are great', agents)).toEqual([]);
    expect(parseMentions('(@Fixer)', agents)).toEqual(['a-fixer']);
  });

  it('ignores an @ inside a word, unknown names and a body without mentions', () => {
    expect(parseMentions('mail fix@Fixer.dev or @nobody', agents)).toEqual([]);
    expect(parseMentions('no mentions', agents)).toEqual([]);
    expect(parseMentions('@Fixer', [])).toEqual([]);
  });
});
