import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A destructive action on one item of a list, confirmed first: `ask(item)` opens the question,
 * `dialog` wires ConfirmDialog (busy, error, confirm, cancel), and a success closes it and
 * refreshes the lists it changed.
 */
export function useConfirmedAction<T>(options: { readonly act: (item: T) => Promise<unknown>; readonly refreshes: readonly QueryKey[] }) {
  const queries = useQueryClient();
  const [target, setTarget] = useState<T>();
  const mutation = useMutation({
    mutationFn: options.act,
    onSuccess: async () => {
      setTarget(undefined);
      for (const queryKey of options.refreshes) await queries.invalidateQueries({ queryKey });
    },
  });
  return {
    target,
    ask: (item: T) => setTarget(item),
    dialog: {
      busy: mutation.isPending,
      error: mutation.error,
      onConfirm: () => {
        if (target !== undefined) mutation.mutate(target);
      },
      onCancel: () => {
        setTarget(undefined);
        mutation.reset();
      },
    },
  };
}
