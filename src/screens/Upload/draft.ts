import { useEffect, useRef, useState } from 'react';
import { useGetPreferences } from '../../api/gen/endpoints/auth';
import {
  initialUploadForm,
  titleFromFileName,
  validateUpload,
  voiceFor,
  type FieldErrors,
  type UploadForm,
} from '../../features/upload';

/** What the reader entered: the form's fields and the chosen file. */
export interface Draft {
  form: UploadForm;
  file: File | null;
}

/**
 * The upload form's draft and its messages. Before the first submit no message shows; after it,
 * the messages follow the input as it is corrected (`revalidate`). The voice saved on the Account
 * page starts the form (once, when it arrives); the reader can still pick another for this book.
 */
export function useUploadDraft() {
  const [draft, setDraft] = useState<Draft>({ form: initialUploadForm, file: null });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [titleTouched, setTitleTouched] = useState(false);
  const { form } = draft;

  const preferences = useGetPreferences({ query: { staleTime: 60_000, retry: false } });
  const savedVoiceApplied = useRef(false);
  useEffect(() => {
    const saved = preferences.data?.default_voice;
    if (!saved || savedVoiceApplied.current) return;
    savedVoiceApplied.current = true;
    const voiceId = saved.voice_id ?? voiceFor(saved.provider);
    setDraft((d) => ({ ...d, form: { ...d.form, ttsProvider: saved.provider, voiceId } }));
  }, [preferences.data]);

  const revalidate = (next: UploadForm, hasFile = false) => {
    if (attempted) setErrors(validateUpload(next, hasFile) ?? {});
  };

  return {
    draft,
    setDraft,
    errors,
    titleTouched,
    revalidate,
    /** Replaces the draft (a mode switched, a file removed). */
    apply: (next: Draft) => {
      setDraft(next);
      revalidate(next.form);
    },
    /** Sets one field. */
    update: <K extends keyof UploadForm>(field: K, value: UploadForm[K]) => {
      if (field === 'title') setTitleTouched(true);
      // From the latest draft, not this render's: the voice picker may have just chosen the
      // server's default voice (its list arrived while the reader typed), and a keystroke must not
      // undo that.
      setDraft((current) => ({ ...current, form: { ...current.form, [field]: value } }));
      revalidate({ ...form, [field]: value });
    },
    /** A refused file takes back the title its name gave (never one the reader typed). */
    forgetFileTitle: (current: UploadForm, name: string): UploadForm =>
      !titleTouched && current.title === titleFromFileName(name) ? { ...current, title: '' } : current,
    /** The first submit: shows every message; true when the form is valid. */
    validate: (hasFile: boolean) => {
      setAttempted(true);
      const invalid = validateUpload(form, hasFile);
      setErrors(invalid ?? {});
      return invalid === null;
    },
  };
}

export type UploadDraft = ReturnType<typeof useUploadDraft>;
