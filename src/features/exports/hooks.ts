import { useQueryClient } from '@tanstack/react-query';
import {
  getListAudioExportsQueryKey,
  useCancelAudioExport,
  useListAudioExports,
  useStartAudioExport,
} from '../../api/gen/endpoints/exports';
import type { ExportFormat, ExportList } from '../../api/gen/model';
import { EXPORT_POLL_MS, isBuilding } from './download-formats';

/** The book's four downloads, asked again every EXPORT_POLL_MS while one is being built. */
export function useBookExports(jobId: string, enabled = true) {
  return useListAudioExports(jobId, {
    query: {
      enabled,
      refetchInterval: (q) =>
        q.state.status !== 'error' && (q.state.data?.exports ?? []).some(isBuilding) ? EXPORT_POLL_MS : false,
    },
  });
}

/** Starts building a format; the list shows it building at once. */
export function useStartExport(jobId: string) {
  const client = useQueryClient();
  const mutation = useStartAudioExport({
    mutation: {
      onSuccess: (entry) => {
        client.setQueryData<ExportList>(getListAudioExportsQueryKey(jobId), (list) =>
          list === undefined ? list : { exports: list.exports.map((e) => (e.format === entry.format ? entry : e)) },
        );
        void client.invalidateQueries({ queryKey: getListAudioExportsQueryKey(jobId) });
      },
    },
  });
  return {
    start: (format: ExportFormat) => mutation.mutate({ jobId, data: { format } }),
    pending: mutation.isPending ? (mutation.variables?.data.format ?? null) : null,
    error: mutation.error,
  };
}

/** Stops a build (or forgets a kept file). */
export function useCancelExport(jobId: string) {
  const client = useQueryClient();
  const mutation = useCancelAudioExport({
    mutation: { onSettled: () => client.invalidateQueries({ queryKey: getListAudioExportsQueryKey(jobId) }) },
  });
  return {
    cancel: (format: ExportFormat) => mutation.mutate({ jobId, format }),
    pending: mutation.isPending ? (mutation.variables?.format ?? null) : null,
    error: mutation.error,
  };
}
