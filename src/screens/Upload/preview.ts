import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { usePreviewJob } from '../../api/gen/endpoints/jobs';
import type { JobCreateRequest } from '../../api/gen/model';
import { errorMessage } from '../../api/errors';
import { initiallyChosen, jobRequest, MIN_TEXT_LENGTH, type UploadForm, type UploadMode } from '../../features/upload';
import type { PreviewState } from './ChapterPreview';
import type { Draft } from './draft';

/** Typing pauses this long before the preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 500;

/** The preview request for what is entered now, or null when there is nothing to preview yet. */
export function previewRequest(
  mode: UploadMode,
  form: UploadForm,
  fileKey: string | null,
  fileTitle: string,
): JobCreateRequest | null {
  if (form.ttsProvider === '') return null;
  const base = { ...form, title: mode === 'file' ? fileTitle || 'Untitled' : 'Untitled' };
  if (mode === 'file' && fileKey) return jobRequest(base, { fileKey });
  if (mode === 'text' && form.textContent.trim().length >= MIN_TEXT_LENGTH) return jobRequest(base, {});
  return null;
}

interface PreviewInput {
  /** What to preview (`previewRequest`), or null for nothing. */
  request: JobCreateRequest | null;
  /** The title the file's name gave, which the book's own title may replace. */
  fileTitle: string;
  titleTouched: boolean;
  setDraft: Dispatch<SetStateAction<Draft>>;
}

/**
 * The chapter preview: it follows the text, the file and the voice once typing pauses (an older
 * answer never replaces a newer one), with the chapters the reader chose and the titles they gave.
 */
export function useChapterPreview({ request, fileTitle, titleTouched, setDraft }: PreviewInput) {
  const previewJob = usePreviewJob();
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [chapterTitles, setChapterTitles] = useState<Record<number, string>>({});
  const previewSeq = useRef(0);
  const previewSource = useRef<string | null>(null);
  const requestKey = request === null ? null : JSON.stringify(request);

  useEffect(() => {
    const seq = ++previewSeq.current;
    if (requestKey === null) {
      setPreview(null);
      return;
    }
    setPreview({ status: 'loading' });
    const timer = setTimeout(() => {
      previewJob
        .mutateAsync({ data: JSON.parse(requestKey) as JobCreateRequest })
        .then((answer) => {
          if (seq !== previewSeq.current) return;
          // A new source starts with every chapter chosen but its front matter; a new voice keeps the choice.
          const source = JSON.stringify([answer.title, answer.chapters.map((c) => c.title)]);
          if (source !== previewSource.current) {
            previewSource.current = source;
            setSelected(initiallyChosen(answer));
            setChapterTitles({});
          }
          setPreview({ status: 'ready', preview: answer });
          // The book's own title replaces one made from the file name, not one the reader typed.
          if (!titleTouched && answer.title && answer.title !== 'Untitled' && answer.title !== fileTitle) {
            setDraft((current) => ({ ...current, form: { ...current.form, title: answer.title } }));
          }
        })
        .catch((error: unknown) => {
          if (seq !== previewSeq.current) return;
          setPreview({
            status: 'error',
            message: errorMessage(error, 'The preview could not be made. You can still create the audiobook.'),
          });
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // previewJob is a new object each render; the request key alone decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey]);

  const ready = preview?.status === 'ready' ? preview.preview : null;
  const isBook = ready?.job_type === 'book_processing';
  return {
    preview,
    /** The answer, once there is one. */
    ready,
    /** A book with chapters to choose (not a short text). */
    isBook,
    selected,
    /** How many chapters will be converted (0 for a short text). */
    chosen: isBook ? selected.size : 0,
    chapterTitles,
    onToggle: (index: number, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(index);
        else next.delete(index);
        return next;
      }),
    onChapterTitle: (index: number, title: string) => setChapterTitles((current) => ({ ...current, [index]: title })),
  };
}

export type ChapterPreviewModel = ReturnType<typeof useChapterPreview>;
