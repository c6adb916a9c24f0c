import { useId } from 'react';
import styled from 'styled-components';
import { Field, FieldLabel, FieldMessage, TextField } from '../../components/ui';
import {
  countedCharacters,
  isPlainText,
  MIN_TEXT_LENGTH,
  type FieldErrors,
  type UploadForm,
  type UploadMode,
} from '../../features/upload';
import { FileDrop } from './FileDrop';
import { SourceTabs } from './SourceTabs';

const TextArea = styled.textarea<{ $invalid: boolean }>`
  font: inherit;
  border-radius: 8px;
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

interface SourceFieldsProps {
  mode: UploadMode;
  onMode: (mode: UploadMode) => void;
  form: UploadForm;
  file: File | null;
  errors: FieldErrors;
  fileError: string | null;
  update: <K extends keyof UploadForm>(field: K, value: UploadForm[K]) => void;
  onFile: (file: File) => void;
  onRemoveFile: () => void;
}

/** "Content Source": the tabs and the source each one takes (pasted text, a book file, a web page). */
export function SourceFields({
  mode,
  onMode,
  form,
  file,
  errors,
  fileError,
  update,
  onFile,
  onRemoveFile,
}: SourceFieldsProps) {
  const ids = { text: useId(), counter: useId(), textError: useId() };
  const counter = `${countedCharacters(form.textContent)} characters (minimum ${MIN_TEXT_LENGTH})`;
  const textError = errors.textContent;

  return (
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
              onFile={onFile}
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
  );
}
