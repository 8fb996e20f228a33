/** Totals of a `git diff --numstat -z --no-renames` listing. */
export interface DiffTotals {
  filesChanged: number;
  insertions: number;
  deletions: number;
}

/**
 * Sums `git diff --numstat -z --no-renames` output: one `<added>\t<deleted>\t<path>\0` record per
 * file; a binary file shows `-\t-` and counts as one changed file with no lines.
 */
export function parseNumstat(output: string): DiffTotals {
  const totals: DiffTotals = { filesChanged: 0, insertions: 0, deletions: 0 };
  for (const record of output.split('\0')) {
    const match = /^(\d+|-)\t(\d+|-)\t/.exec(record.replace(/^\n/, ''));
    if (match === null) continue;
    totals.filesChanged += 1;
    totals.insertions += match[1] === '-' ? 0 : Number(match[1]);
    totals.deletions += match[2] === '-' ? 0 : Number(match[2]);
  }
  return totals;
}

/** Entries of `git status --porcelain -z --no-renames`: each `XY <path>\0` is one file. */
export function countPorcelainEntries(output: string): number {
  return output.split('\0').filter((entry) => /^[ MADRCUT?!]{2} /.test(entry)).length;
}
