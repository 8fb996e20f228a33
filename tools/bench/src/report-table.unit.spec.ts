import { ratioCell, renderTable } from './report-table';

describe('report table', () => {
  it('pads every column under the header and trims the line end', () => {
    const lines = renderTable([['REST cancel -> process tree gone', 'p50 1.00 ms', '', '1.00']]).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.indexOf('latency')).toBe(lines[1]!.indexOf('p50'));
    expect(lines[1]!.endsWith('1.00')).toBe(true);
  });

  it('states a ratio to one decimal', () => {
    expect(ratioCell(45, 10, 'p50 of bare spawn')).toBe('x4.5 p50 of bare spawn');
  });
});
