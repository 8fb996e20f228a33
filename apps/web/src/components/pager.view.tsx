import { useCallback, useEffect, useMemo, useState } from 'react';

export interface PagerProps {
  /** Names the list the pager moves through, for screen readers ("Agents pages"). */
  readonly label: string;
  /** 1-based. */
  readonly page: number;
  /** Known only when the whole list is at hand (client pages); a cursor API does not say. */
  readonly pageCount?: number;
  readonly hasPrevious: boolean;
  readonly hasNext: boolean;
  readonly busy?: boolean;
  onPrevious(): void;
  onNext(): void;
}

/** Previous / next over a list; nothing at all when everything fits on one page. */
export function Pager(props: PagerProps) {
  if (!props.hasPrevious && !props.hasNext) return null;
  return (
    <nav className="pager" aria-label={props.label}>
      <button type="button" onClick={props.onPrevious} disabled={!props.hasPrevious || props.busy}>
        ← Previous
      </button>
      <span aria-live="polite">
        Page {props.page}
        {props.pageCount === undefined ? '' : ` of ${props.pageCount}`}
        {props.busy ? ' (loading…)' : ''}
      </span>
      <button type="button" onClick={props.onNext} disabled={!props.hasNext || props.busy}>
        Next →
      </button>
    </nav>
  );
}

/** Pages over a list the API answers whole: the items of the current page and the pager's props. */
export function useClientPages<T>(items: readonly T[], pageSize: number, label: string): { readonly pageItems: readonly T[]; readonly pager: PagerProps } {
  const [page, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  // A list that shrank (a filter, a removal) must not leave the reader past its end.
  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);
  const current = Math.min(page, pageCount);
  const pageItems = useMemo(() => items.slice((current - 1) * pageSize, current * pageSize), [items, current, pageSize]);
  return {
    pageItems,
    pager: {
      label,
      page: current,
      pageCount,
      hasPrevious: current > 1,
      hasNext: current < pageCount,
      onPrevious: () => setPage(current - 1),
      onNext: () => setPage(current + 1),
    },
  };
}

/**
 * Pages over an API that answers a `nextCursor`: keeps the cursors of the pages already seen, so
 * Previous goes back without the API paging backwards.
 */
export function useCursorPages(resetKey: string): {
  readonly cursor: string | undefined;
  readonly page: number;
  goNext(nextCursor: string): void;
  goPrevious(): void;
} {
  const [state, setState] = useState<{ readonly key: string; readonly cursors: ReadonlyArray<string | undefined> }>({ key: resetKey, cursors: [undefined] });
  // Another list (another filter) starts at its first page.
  const cursors = state.key === resetKey ? state.cursors : [undefined];
  const goNext = useCallback((nextCursor: string) => setState({ key: resetKey, cursors: [...cursors, nextCursor] }), [cursors, resetKey]);
  const goPrevious = useCallback(() => setState({ key: resetKey, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }), [cursors, resetKey]);
  return { cursor: cursors.at(-1), page: cursors.length, goNext, goPrevious };
}
