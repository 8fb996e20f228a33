import { BENCH_SECTIONS, selectSections } from './bench-sections';

describe('bench section selection', () => {
  it('runs every section without --only', () => {
    expect(selectSections([])).toEqual([...BENCH_SECTIONS]);
  });

  it('keeps run order whatever order --only names them in', () => {
    expect(selectSections(['--only=daemon,dispatch'])).toEqual(['dispatch', 'daemon']);
  });

  it('refuses an unknown or empty selection, naming the accepted sections', () => {
    expect(() => selectSections(['--only=dispatch,rss'])).toThrow(/unknown section\(s\) rss; accepted: claims, peer, timeline/);
    expect(() => selectSections(['--only='])).toThrow(/\(none given\)/);
  });
});
