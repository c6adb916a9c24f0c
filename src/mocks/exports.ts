import { getCancelAudioExportMockHandler } from '../api/gen/endpoints/exports/cancel-audio-export.msw';
import { getListAudioExportsMockHandler } from '../api/gen/endpoints/exports/list-audio-exports.msw';
import { getStartAudioExportMockHandler } from '../api/gen/endpoints/exports/start-audio-export.msw';
import type { Export, ExportFormat, ExportList } from '../api/gen/model';
import { answer, type ReplyOptions } from './answer';
import { bookJobId } from './audio';

/** Downloads of the sample book (src/mocks/audio.ts), as the server answers them. */
const FILENAMES: Record<ExportFormat, string> = {
  m4b: 'The Tell-Tale Heart.m4b',
  mp3: 'The Tell-Tale Heart.mp3',
  zip: 'The Tell-Tale Heart.zip',
  epub: 'The Tell-Tale Heart.epub',
};
const SIZES: Record<ExportFormat, number> = { m4b: 31_457_280, mp3: 41_943_040, zip: 42_205_184, epub: 42_467_328 };

/** One format's entry: `none` unless `overrides` say otherwise; a ready one has its signed link. */
export function exportFixture(format: ExportFormat, overrides: Partial<Export> = {}): Export {
  const status = overrides.status ?? 'none';
  return {
    format,
    status,
    progress: status === 'ready' ? 100 : 0,
    filename: FILENAMES[format],
    size_bytes: status === 'ready' ? SIZES[format] : null,
    download_url:
      status === 'ready'
        ? `/api/v1/audio/${bookJobId}/download?format=${format}&expires=1893456000&sig=c2lnbmVkLWxpbms`
        : null,
    error_message: null,
    updated_at: status === 'none' ? null : '2030-01-01T12:00:00Z',
    ...overrides,
  };
}

/** The four formats, each `none` unless named in `states`. */
export function exportListFixture(states: Partial<Record<ExportFormat, Partial<Export>>> = {}): ExportList {
  return {
    exports: (['m4b', 'mp3', 'zip', 'epub'] as const).map((format) => exportFixture(format, states[format] ?? {})),
  };
}

export function exportsHandler(
  list: ExportList | ((call: number) => ExportList) = exportListFixture(),
  options: ReplyOptions = {},
) {
  let calls = 0;
  return getListAudioExportsMockHandler(
    answer(options, () => {
      calls += 1;
      return typeof list === 'function' ? list(calls) : list;
    }),
  );
}

/** POST /audio/{id}/exports: the format starts building (queued, 0 %). */
export function startExportHandler(options: ReplyOptions = {}) {
  return getStartAudioExportMockHandler(
    answer(options, async ({ request }) => {
      const { format } = (await request.clone().json()) as { format: ExportFormat };
      return exportFixture(format, { status: 'queued' });
    }),
  );
}

export function cancelExportHandler(options: ReplyOptions = {}) {
  return getCancelAudioExportMockHandler(answer(options, () => undefined));
}
