import { useQueryClient } from '@tanstack/react-query';
import { getListFeedsQueryKey, useCreateFeed, useDeleteFeed } from '../../api/gen/endpoints/feeds';

/** The book's (or, without a book, the library's) private feed: made or found on the server. */
export function useFeed() {
  const client = useQueryClient();
  const create = useCreateFeed({
    mutation: { onSuccess: () => client.invalidateQueries({ queryKey: getListFeedsQueryKey() }) },
  });
  const remove = useDeleteFeed({
    mutation: { onSuccess: () => client.invalidateQueries({ queryKey: getListFeedsQueryKey() }) },
  });
  return { create, remove };
}
