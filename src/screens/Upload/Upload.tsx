import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { useCreateJob, usePreviewJob } from '../../api/gen/endpoints/jobs/jobs';
import { useGetPreferences } from '../../api/gen/endpoints/auth/auth';
import type { JobCreateRequest, TtsProvider } from '../../api/gen/model';
import { useUploadFile } from '../../api/gen/endpoints/files/files';
import { errorMessage } from '../../api/errors';
import { Alert, Button, Card, Field, FieldLabel, FieldMessage, Page, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import { invalidateJobLists } from '../../features/jobs';
import {
  initialUploadForm,
  switchMode,
  MIN_TEXT_LENGTH,
  type UploadForm,
  type UploadMode,
  validateUpload,
  canSubmit,
  type FieldErrors,
  checkFile,
  countedCharacters,
  initiallyChosen,
  isPlainText,
  whyCannotSubmit,
  readFileText,
  titleFromFileName,
  chapterChoice,
  jobRequest,
  voiceFor,
} from '../../features/upload';
import { VoicePicker } from '../../features/voices';
import { ChapterPreview, type PreviewState } from './ChapterPreview';
import { FileDrop } from './FileDrop';
import { SourceTabs } from './SourceTabs';

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(5)};
`;

const control = `
  font: inherit;
  border-radius: 8px;
`;

const TextArea = styled.textarea<{ $invalid: boolean }>`
  ${control}
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme, $invalid }) => ($invalid ? theme.colors.danger : theme.colors.textMuted)};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  resize: vertical;
`;

const Legend = styled.h2`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.md};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
`;

/** Why Create is not possible yet, beside it (and its description). */
const Reason = styled.p`
  margin: 0 auto 0 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

interface Draft {
  form: UploadForm;
  file: File | null;
}

/** Typing pauses this long before the preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 500;

/** The preview request for what is entered now, or null when there is nothing to preview yet. */
function previewRequest(
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

export function Upload() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const uploadFile = useUploadFile();
  const createJob = useCreateJob();
  const ids = { text: useId(), counter: useId(), textError: useId(), submitReason: useId() };
  const [mode, setMode] = useState<UploadMode>('text');
  const [draft, setDraft] = useState<Draft>({ form: initialUploadForm, file: null });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [step, setStep] = useState<'idle' | 'uploading' | 'creating'>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  const previewJob = usePreviewJob();
  const [fileKey, setFileKey] = useState<string | null>(null);
  const [fileUploading, setFileUploading] = useState(false);
  const [titleTouched, setTitleTouched] = useState(false);
  // A refused file takes back the title its name gave (never one the reader typed).
  const forgetFileTitle = (current: UploadForm, name: string): UploadForm =>
    !titleTouched && current.title === titleFromFileName(name) ? { ...current, title: '' } : current;
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [chapterTitles, setChapterTitles] = useState<Record<number, string>>({});
  const previewSeq = useRef(0);
  const uploadSeq = useRef(0);
  const previewSource = useRef<string | null>(null);
  const { form, file } = draft;
  const fileTitle = file ? titleFromFileName(file.name) : '';

  // The voice saved on the Account page starts the form (once, when it arrives); the reader can
  // still pick another for this book.
  const preferences = useGetPreferences({ query: { staleTime: 60_000, retry: false } });
  const savedVoiceApplied = useRef(false);
  useEffect(() => {
    const saved = preferences.data?.default_voice;
    if (!saved || savedVoiceApplied.current) return;
    savedVoiceApplied.current = true;
    const voiceId = saved.voice_id ?? voiceFor(saved.provider);
    setDraft((d) => ({ ...d, form: { ...d.form, ttsProvider: saved.provider, voiceId } }));
  }, [preferences.data]);
  const request = previewRequest(mode, form, fileKey, fileTitle);
  const requestKey = request === null ? null : JSON.stringify(request);

  // The preview follows the text, the file and the voice, once typing pauses.
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
  const chosen = isBook ? selected.size : 0;

  const apply = (next: Draft) => {
    setDraft(next);
    // After a first submit, messages follow the input as it is corrected.
    if (attempted) setErrors(validateUpload(next.form) ?? {});
  };
  const update = <K extends keyof UploadForm>(field: K, value: UploadForm[K]) => {
    if (field === 'title') setTitleTouched(true);
    // From the latest draft, not this render's: the voice picker may have just chosen the server's
    // default voice (its list arrived while the reader typed), and a keystroke must not undo that.
    setDraft((current) => ({ ...current, form: { ...current.form, [field]: value } }));
    if (attempted) setErrors(validateUpload({ ...form, [field]: value }) ?? {});
  };

  const onMode = (next: UploadMode) => {
    if (next === mode) return;
    setMode(next);
    setFileError(null);
    apply(switchMode(draft, next));
  };

  const onFile = async (chosen: File) => {
    const problem = checkFile(chosen);
    setFileError(problem);
    if (problem) return;
    let text = '';
    try {
      if (isPlainText(chosen)) text = await readFileText(chosen);
    } catch (error) {
      setFileError(error instanceof Error ? error.message : 'Failed to read file content');
      return;
    }
    setDraft((current) => {
      const next = {
        file: chosen,
        form: {
          ...current.form,
          textContent: text,
          title: current.form.title.trim() && titleTouched ? current.form.title : titleFromFileName(chosen.name),
        },
      };
      if (attempted) setErrors(validateUpload(next.form, true) ?? {});
      return next;
    });
    // The file goes up at once: the server reads its chapters for the preview.
    const seq = ++uploadSeq.current;
    setFileKey(null);
    setFileUploading(true);
    try {
      const uploaded = await uploadFile.mutateAsync({ data: { file: chosen } });
      if (seq === uploadSeq.current) setFileKey(uploaded.file_key);
    } catch (error) {
      if (seq !== uploadSeq.current) return;
      setFileError(errorMessage(error, 'The file could not be uploaded. Please try again.'));
      setDraft((current) => ({
        ...current,
        file: null,
        form: { ...forgetFileTitle(current.form, chosen.name), textContent: '' },
      }));
    } finally {
      if (seq === uploadSeq.current) setFileUploading(false);
    }
  };

  const onRemoveFile = () => {
    // An upload still under way no longer counts.
    uploadSeq.current += 1;
    setFileUploading(false);
    setFileError(null);
    setFileKey(null);
    apply({ file: null, form: { ...(file ? forgetFileTitle(form, file.name) : form), textContent: '' } });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const hasFile = mode === 'file' && file !== null;
    const invalid = validateUpload(form, hasFile);
    setErrors(invalid ?? {});
    if (invalid) return;
    if (isBook && chosen === 0) return;
    setServerError(null);
    try {
      let key: string | undefined;
      if (hasFile) {
        key = fileKey ?? undefined;
        if (!key) {
          setStep('uploading');
          key = (await uploadFile.mutateAsync({ data: { file } })).file_key;
          setFileKey(key);
        }
      }
      setStep('creating');
      const choice = ready && isBook ? chapterChoice(ready, selected, chapterTitles) : {};
      const job = await createJob.mutateAsync({ data: jobRequest(form, { fileKey: key }, choice) });
      // The top bar's running badge, the dashboard counters and the lists refresh at once.
      void invalidateJobLists(queryClient);
      navigate(paths.job(job.id));
    } catch (error) {
      setServerError(errorMessage(error, 'Failed to create job. Please try again.'));
      setStep('idle');
    }
  };

  const onToggle = (index: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(index);
      else next.delete(index);
      return next;
    });
  const onChapterTitle = (index: number, title: string) =>
    setChapterTitles((current) => ({ ...current, [index]: title }));

  const submitting = step !== 'idle' || fileUploading;
  const submitLabel =
    step === 'uploading' || fileUploading
      ? 'Uploading file...'
      : step === 'creating'
        ? 'Creating...'
        : isBook
          ? `Convert ${chosen} ${chosen === 1 ? 'chapter' : 'chapters'}`
          : 'Create Audiobook';
  const counter = `${countedCharacters(form.textContent)} characters (minimum ${MIN_TEXT_LENGTH})`;
  const textError = errors.textContent;
  const blocked = whyCannotSubmit(mode, form, mode === 'file' ? file : null);

  return (
    <Page
      title="Add a book"
      lead="Make an audiobook from text, a book file (.txt, .epub, .pdf, .md, .html) or a web page address."
    >
      <Card>
        <Form noValidate onSubmit={onSubmit} aria-label="Add a book">
          {serverError && <Alert tone="error">{serverError}</Alert>}
          <TextField
            label="Title"
            name="title"
            value={form.title}
            error={errors.title}
            onChange={(e) => update('title', e.target.value)}
          />
          <VoicePicker
            value={form.ttsProvider ? { provider: form.ttsProvider as TtsProvider, voiceId: form.voiceId } : null}
            onChange={(voice) =>
              setDraft((d) => ({ ...d, form: { ...d.form, ttsProvider: voice.provider, voiceId: voice.voiceId } }))
            }
          />
          <Field as="section" aria-labelledby="content-source-heading">
            <Legend id="content-source-heading">Content Source</Legend>
            <SourceTabs mode={mode} onChange={onMode}>
              {mode === 'text' && (
                <Field>
                  <FieldLabel htmlFor={ids.text}>Story Text</FieldLabel>
                  <TextArea
                    id={ids.text}
                    name="textContent"
                    rows={12}
                    value={form.textContent}
                    placeholder="Paste or type your story here..."
                    $invalid={Boolean(textError)}
                    aria-invalid={textError ? true : undefined}
                    aria-describedby={[ids.counter, textError ? ids.textError : null].filter(Boolean).join(' ')}
                    onChange={(e) => update('textContent', e.target.value)}
                  />
                  <FieldMessage id={ids.counter}>{counter}</FieldMessage>
                  {textError && (
                    <FieldMessage id={ids.textError} $error>
                      {textError}
                    </FieldMessage>
                  )}
                </Field>
              )}
              {mode === 'file' && (
                <Field>
                  <FileDrop
                    file={file}
                    error={fileError ?? undefined}
                    describedBy={ids.counter}
                    onFile={(chosen) => void onFile(chosen)}
                    onRemove={onRemoveFile}
                  />
                  {/* A book file's text is counted by the server: the preview shows it. */}
                  {(!file || isPlainText(file)) && <FieldMessage id={ids.counter}>{counter}</FieldMessage>}
                  {textError && <FieldMessage $error>{textError}</FieldMessage>}
                </Field>
              )}
              {mode === 'url' && (
                <TextField
                  label="Web Page URL"
                  type="url"
                  name="url"
                  placeholder="https://example.com/story"
                  hint="The page's main text becomes the audiobook."
                  value={form.url}
                  error={errors.url}
                  onChange={(e) => update('url', e.target.value)}
                />
              )}
            </SourceTabs>
          </Field>
          {preview && (
            <ChapterPreview
              state={preview}
              selected={selected}
              titles={chapterTitles}
              onToggle={onToggle}
              onTitle={onChapterTitle}
            />
          )}
          <Actions>
            {blocked && !submitting && <Reason id={ids.submitReason}>{blocked}</Reason>}
            <Button variant="secondary" onClick={() => navigate(paths.dashboard())}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={submitting || !canSubmit(form, file) || (isBook && chosen === 0)}
              aria-describedby={blocked && !submitting ? ids.submitReason : undefined}
            >
              {submitLabel}
            </Button>
          </Actions>
        </Form>
      </Card>
    </Page>
  );
}
