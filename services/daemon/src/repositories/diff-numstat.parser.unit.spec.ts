import { countPorcelainEntries, parseNumstat } from './diff-numstat.parser';

describe('parseNumstat', () => {
  it('Given text and binary changes, when summed, then a binary file counts as changed with no lines', () => {
    const output = '3\t1\tsrc/a.ts\0' + '-\t-\tlogo.png\0' + '0\t12\tgone.txt\0';
    expect(parseNumstat(output)).toEqual({ filesChanged: 3, insertions: 3, deletions: 13 });
  });

  it('Given a path with a tab or a newline (kept whole by -z), when summed, then it is one file', () => {
    expect(parseNumstat('1\t0\tweird\tname\nwith newline\0')).toEqual({ filesChanged: 1, insertions: 1, deletions: 0 });
  });

  it('Given no changes, when summed, then everything is zero', () => {
    expect(parseNumstat('')).toEqual({ filesChanged: 0, insertions: 0, deletions: 0 });
  });
});

describe('countPorcelainEntries', () => {
  it('counts modified, added, deleted and untracked files once each', () => {
    expect(countPorcelainEntries(' M a.txt\0A  b.txt\0 D c.txt\0?? new file.txt\0')).toBe(4);
  });

  it('counts nothing for a clean tree', () => {
    expect(countPorcelainEntries('')).toBe(0);
  });
});
