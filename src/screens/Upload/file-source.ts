import { useRef, useState } from 'react';
import { useUploadFile } from '../../api/gen/endpoints/files';
import { errorMessage } from '../../api/errors';
import { checkFile, isPlainText, readFileText, titleFromFileName } from '../../features/upload';
import type { UploadDraft } from './draft';

/**
 * The book file of the upload form: checked, read in the browser when it is plain text (its text
 * fills the character counter), its name giving the title unless the reader typed one, and sent
 * up at once so the server reads its chapters for the preview (`fileKey` once it is there).
 */
export function useFileSource({ setDraft, revalidate, apply, forgetFileTitle, titleTouched, draft }: UploadDraft) {
  const uploadFile = useUploadFile();
  const [fileError, setFileError] = useState<string | null>(null);
  const [fileKey, setFileKey] = useState<string | null>(null);
  const [fileUploading, setFileUploading] = useState(false);
  const uploadSeq = useRef(0);

  const upload = async (chosen: File) => {
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
      revalidate(next.form, true);
      return next;
    });
    await upload(chosen);
  };

  const onRemove = () => {
    const { form, file } = draft;
    // An upload still under way no longer counts.
    uploadSeq.current += 1;
    setFileUploading(false);
    setFileError(null);
    setFileKey(null);
    apply({ file: null, form: { ...(file ? forgetFileTitle(form, file.name) : form), textContent: '' } });
  };

  return {
    fileKey,
    fileUploading,
    fileError,
    clearFileError: () => setFileError(null),
    onFile,
    onRemove,
    /** Sends the file up again (the submit's, when the first upload did not finish); its key. */
    uploadNow: async (file: File) => {
      const key = (await uploadFile.mutateAsync({ data: { file } })).file_key;
      setFileKey(key);
      return key;
    },
  };
}
