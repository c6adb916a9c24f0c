import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { useCreateJob } from '../../api/gen/endpoints/jobs/jobs';
import { useUploadFile } from '../../api/gen/endpoints/files/files';
import { errorMessage } from '../../api/http';
import { Alert, Button, Card, FieldMessage, Page, TextField } from '../../components/ui';
import { paths } from '../../lib/paths';
import { invalidateJobLists } from '../../features/jobs';
import {
  canSubmit,
  checkFile,
  initialUploadForm,
  jobRequest,
  MIN_TEXT_LENGTH,
  providerOptions,
  readFileText,
  switchMode,
  titleFromFileName,
  validateUpload,
  type FieldErrors,
  type UploadForm,
  type UploadMode,
} from '../../features/upload';
import { FileDrop } from './FileDrop';
import { SourceTabs } from './SourceTabs';

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(5)};
`;

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(1)};
`;

const Label = styled.label`
  font-weight: 600;
`;

const control = `
  font: inherit;
  border-radius: 8px;
`;

const Select = styled.select<{ $invalid: boolean }>`
  ${control}
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border: 1px solid ${({ theme, $invalid }) => ($invalid ? theme.colors.danger : theme.colors.textMuted)};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
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
  font-size: 1rem;
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(3)};
`;

interface Draft {
  form: UploadForm;
  file: File | null;
}

export function Upload() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const uploadFile = useUploadFile();
  const createJob = useCreateJob();
  const ids = { provider: useId(), text: useId(), counter: useId(), textError: useId(), providerError: useId() };
  const [mode, setMode] = useState<UploadMode>('text');
  const [draft, setDraft] = useState<Draft>({ form: initialUploadForm, file: null });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [step, setStep] = useState<'idle' | 'uploading' | 'creating'>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  const { form, file } = draft;

  const apply = (next: Draft) => {
    setDraft(next);
    // After a first submit, messages follow the input as it is corrected.
    if (attempted) setErrors(validateUpload(next.form) ?? {});
  };
  const update = <K extends keyof UploadForm>(field: K, value: UploadForm[K]) =>
    apply({ ...draft, form: { ...draft.form, [field]: value } });

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
    try {
      const text = await readFileText(chosen);
      setDraft((current) => {
        const next = {
          file: chosen,
          form: {
            ...current.form,
            textContent: text,
            title: current.form.title.trim() ? current.form.title : titleFromFileName(chosen.name),
          },
        };
        if (attempted) setErrors(validateUpload(next.form) ?? {});
        return next;
      });
    } catch (error) {
      setFileError(error instanceof Error ? error.message : 'Failed to read file content');
    }
  };

  const onRemoveFile = () => {
    setFileError(null);
    apply({ file: null, form: { ...form, textContent: '' } });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const invalid = validateUpload(form);
    setErrors(invalid ?? {});
    if (invalid) return;
    setServerError(null);
    try {
      let fileKey: string | undefined;
      if (mode === 'file' && file) {
        setStep('uploading');
        fileKey = (await uploadFile.mutateAsync({ data: { file } })).file_key;
      }
      setStep('creating');
      const job = await createJob.mutateAsync({ data: jobRequest(form, { fileKey }) });
      // The top bar's running badge, the dashboard counters and the lists refresh at once.
      void invalidateJobLists(queryClient);
      navigate(paths.job(job.id));
    } catch (error) {
      setServerError(errorMessage(error, 'Failed to create job. Please try again.'));
      setStep('idle');
    }
  };

  const submitting = step !== 'idle';
  const counter = `${form.textContent.length} characters (minimum ${MIN_TEXT_LENGTH})`;
  const textError = errors.textContent;

  return (
    <Page title="Upload Story" lead="Create an audiobook from text, a .txt file or a web page address.">
      <Card>
        <Form noValidate onSubmit={onSubmit} aria-label="Upload Story">
          {serverError && <Alert tone="error">{serverError}</Alert>}
          <TextField
            label="Job Title"
            name="title"
            value={form.title}
            error={errors.title}
            onChange={(e) => update('title', e.target.value)}
          />
          <Field>
            <Label htmlFor={ids.provider}>Voice Provider</Label>
            <Select
              id={ids.provider}
              name="ttsProvider"
              value={form.ttsProvider}
              $invalid={Boolean(errors.ttsProvider)}
              aria-invalid={errors.ttsProvider ? true : undefined}
              aria-describedby={errors.ttsProvider ? ids.providerError : undefined}
              onChange={(e) => update('ttsProvider', e.target.value)}
            >
              <option value="">Select a provider</option>
              {providerOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {`${option.label} (voice ${option.voice})`}
                </option>
              ))}
            </Select>
            {errors.ttsProvider && (
              <FieldMessage id={ids.providerError} $error>
                {errors.ttsProvider}
              </FieldMessage>
            )}
          </Field>
          <Field as="section" aria-labelledby="content-source-heading">
            <Legend id="content-source-heading">Content Source</Legend>
            <SourceTabs mode={mode} onChange={onMode}>
              {mode === 'text' && (
                <Field>
                  <Label htmlFor={ids.text}>Story Text</Label>
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
                  <FieldMessage id={ids.counter}>{counter}</FieldMessage>
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
          <Actions>
            <Button variant="secondary" onClick={() => navigate(paths.dashboard())}>
              Cancel
            </Button>
            <Button type="submit" disabled={submitting || !canSubmit(form, file)}>
              {step === 'uploading' ? 'Uploading file...' : step === 'creating' ? 'Creating...' : 'Create Audiobook'}
            </Button>
          </Actions>
        </Form>
      </Card>
    </Page>
  );
}
