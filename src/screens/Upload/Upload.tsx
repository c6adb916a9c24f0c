import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { useCreateJob } from '../../api/gen/endpoints/jobs';
import type { TtsProvider } from '../../api/gen/model';
import { errorMessage } from '../../api/errors';
import { Alert, Card, Checkbox, Page, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import { invalidateJobLists } from '../../features/jobs';
import {
  canSubmit,
  chapterChoice,
  jobRequest,
  switchMode,
  titleFromFileName,
  whyCannotSubmit,
  type UploadMode,
} from '../../features/upload';
import { VoicePicker } from '../../features/voices';
import { CastPreview } from './CastPreview';
import { ChapterPreview } from './ChapterPreview';
import { useCastChoice, withCast, type CastChoice } from './cast';
import { useUploadDraft, type UploadDraft } from './draft';
import { useFileSource } from './file-source';
import { previewRequest, useChapterPreview, type ChapterPreviewModel } from './preview';
import { SourceFields } from './SourceFields';
import { SubmitActions, submitLabel } from './SubmitActions';

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(5)};
`;

const FullCastHint = styled.p`
  margin: calc(-1 * ${({ theme }) => theme.space(4)}) 0 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

type Step = 'idle' | 'uploading' | 'creating';

/**
 * Creating the job: the file is sent up first if it is not there yet, then the job made with the
 * chapters the reader chose; the job lists refresh and the job's page opens.
 */
function useCreateBook(
  mode: UploadMode,
  { draft, validate }: UploadDraft,
  files: ReturnType<typeof useFileSource>,
  chapters: ChapterPreviewModel,
  cast: CastChoice,
) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const createJob = useCreateJob();
  const [step, setStep] = useState<Step>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  const { form, file } = draft;
  const { ready, isBook, chosen, selected, chapterTitles } = chapters;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hasFile = mode === 'file' && file !== null;
    if (!validate(hasFile)) return;
    if (isBook && chosen === 0) return;
    setServerError(null);
    try {
      let key: string | undefined;
      if (hasFile) {
        key = files.fileKey ?? undefined;
        if (!key) {
          setStep('uploading');
          key = await files.uploadNow(file);
        }
      }
      setStep('creating');
      const choice = ready && isBook ? chapterChoice(ready, selected, chapterTitles) : {};
      const request = withCast(jobRequest(form, { fileKey: key }, choice), cast.on, cast.voices);
      const job = await createJob.mutateAsync({ data: request });
      // The top bar's running badge, the dashboard counters and the lists refresh at once.
      void invalidateJobLists(queryClient);
      navigate(paths.job(job.id));
    } catch (error) {
      setServerError(errorMessage(error, 'Failed to create job. Please try again.'));
      setStep('idle');
    }
  };
  return { step, serverError, onSubmit };
}

/** "Add a book": the title, the voice, the source, the chapter preview, and Create. */
export function Upload() {
  const [, navigate] = useLocation();
  const [mode, setMode] = useState<UploadMode>('text');
  const draft = useUploadDraft();
  const { form, file } = draft.draft;
  const files = useFileSource(draft);
  const fileTitle = file ? titleFromFileName(file.name) : '';
  const cast = useCastChoice(form.ttsProvider);
  const request = previewRequest(mode, form, files.fileKey, fileTitle);
  const chapters = useChapterPreview({
    // The preview finds the cast; the voices chosen for it change only what create sends.
    request: request && withCast(request, cast.on),
    fileTitle,
    titleTouched: draft.titleTouched,
    setDraft: draft.setDraft,
  });
  const { step, serverError, onSubmit } = useCreateBook(mode, draft, files, chapters, cast);
  const { preview, isBook, chosen } = chapters;

  const onMode = (next: UploadMode) => {
    if (next === mode) return;
    setMode(next);
    files.clearFileError();
    draft.apply(switchMode(draft.draft, next));
  };

  const submitting = step !== 'idle' || files.fileUploading;
  return (
    <Page
      title="Add a book"
      lead="Make an audiobook from text, a book file (.txt, .epub, .pdf, .md, .html) or a web page address."
    >
      <Card>
        <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Add a book">
          {serverError && <Alert tone="error">{serverError}</Alert>}
          <TextField
            label="Title"
            name="title"
            value={form.title}
            error={draft.errors.title}
            onChange={(e) => draft.update('title', e.target.value)}
          />
          <VoicePicker
            value={form.ttsProvider ? { provider: form.ttsProvider as TtsProvider, voiceId: form.voiceId } : null}
            onChange={(voice) =>
              draft.setDraft((d) => ({
                ...d,
                form: { ...d.form, ttsProvider: voice.provider, voiceId: voice.voiceId },
              }))
            }
          />
          <Checkbox
            label="Full cast"
            role="switch"
            checked={cast.on}
            aria-describedby="full-cast-hint"
            onChange={(event) => cast.setOn(event.target.checked)}
          />
          <FullCastHint id="full-cast-hint">
            Every character who speaks gets a voice of their own; the narrator reads the rest.
          </FullCastHint>
          <SourceFields
            mode={mode}
            onMode={onMode}
            form={form}
            file={file}
            errors={draft.errors}
            fileError={files.fileError}
            update={draft.update}
            onFile={(chosenFile) => void files.onFile(chosenFile)}
            onRemoveFile={files.onRemove}
          />
          {preview && (
            <ChapterPreview
              state={preview}
              selected={chapters.selected}
              titles={chapters.chapterTitles}
              onToggle={chapters.onToggle}
              onTitle={chapters.onChapterTitle}
            >
              {cast.on && form.ttsProvider && (
                <CastPreview
                  cast={chapters.ready?.cast}
                  provider={form.ttsProvider as TtsProvider}
                  chosen={cast.voices}
                  onChoose={cast.choose}
                />
              )}
            </ChapterPreview>
          )}
          <SubmitActions
            label={submitLabel(step, files.fileUploading, isBook ? chosen : null)}
            blocked={whyCannotSubmit(mode, form, mode === 'file' ? file : null)}
            submitting={submitting}
            disabled={submitting || !canSubmit(form, file) || (isBook && chosen === 0)}
            onCancel={() => navigate(paths.dashboard())}
          />
        </Form>
      </Card>
    </Page>
  );
}
