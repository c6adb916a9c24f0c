import { describe, expect, it } from 'vitest';
import {
  canSubmit,
  checkFile,
  CONTENT_REQUIRED,
  initialUploadForm,
  jobRequest,
  readFileText,
  switchMode,
  titleFromFileName,
  validateUpload,
} from './form';

const story = 'A'.repeat(100);

describe('upload form schema (spec section 5)', () => {
  it('shows every message at once on an empty form', () => {
    expect(validateUpload({ ...initialUploadForm, ttsProvider: '' })).toEqual({
      title: 'Title is required',
      ttsProvider: 'Please select a TTS provider',
      textContent: CONTENT_REQUIRED,
    });
  });

  it('needs 100 characters of text, or a url', () => {
    const form = { ...initialUploadForm, title: 'Tale' };
    expect(validateUpload({ ...form, textContent: 'A'.repeat(99) })).toEqual({ textContent: CONTENT_REQUIRED });
    expect(validateUpload({ ...form, textContent: story })).toBeNull();
    expect(validateUpload({ ...form, url: 'https://example.com/story' })).toBeNull();
  });

  it('a url must be a valid web address', () => {
    const form = { ...initialUploadForm, title: 'Tale' };
    expect(validateUpload({ ...form, url: 'not a url' })?.url).toBe('Please enter a valid URL');
    expect(validateUpload({ ...form, url: 'ftp://example.com/x' })?.url).toBe('Please enter a valid URL');
  });

  it('a blank title is no title', () => {
    expect(validateUpload({ ...initialUploadForm, title: '   ', textContent: story })).toEqual({ title: 'Title is required' });
  });
});

describe('upload modes (spec section 4)', () => {
  const file = new File(['x'], 'a.txt', { type: 'text/plain' });
  const filled = { form: { ...initialUploadForm, textContent: story, url: 'https://example.com' }, file };

  it('switching to url clears the text and the file', () => {
    expect(switchMode(filled, 'url')).toEqual({ form: { ...filled.form, textContent: '' }, file: null });
  });

  it.each(['text', 'file'] as const)('switching to %s clears the url', (mode) => {
    expect(switchMode(filled, mode)).toEqual({ form: { ...filled.form, url: '' }, file });
  });

  it('submit waits for text, a url or a file', () => {
    expect(canSubmit(initialUploadForm, null)).toBe(false);
    expect(canSubmit({ ...initialUploadForm, textContent: 'x' }, null)).toBe(true);
    expect(canSubmit({ ...initialUploadForm, url: 'h' }, null)).toBe(true);
    expect(canSubmit(initialUploadForm, file)).toBe(true);
  });
});

describe('job request', () => {
  const form = { ...initialUploadForm, title: ' Tale ', textContent: story };
  it('sends text as content with the provider voice', () => {
    expect(jobRequest(form, {})).toEqual({ title: 'Tale', content: story, voice_config: { provider: 'openai', voice_id: 'alloy' } });
  });
  it('sends a url as url', () => {
    expect(jobRequest({ ...form, textContent: '', url: 'https://x.org', ttsProvider: 'elevenlabs' }, {})).toEqual({
      title: 'Tale',
      url: 'https://x.org',
      voice_config: { provider: 'elevenlabs', voice_id: 'adam' },
    });
  });
  it('sends an uploaded file as its file_key only', () => {
    expect(jobRequest(form, { fileKey: 'uploads/a.txt' })).toEqual({
      title: 'Tale',
      file_key: 'uploads/a.txt',
      voice_config: { provider: 'openai', voice_id: 'alloy' },
    });
  });
});

describe('files', () => {
  it('accepts .txt by name or text/plain by type', () => {
    expect(checkFile(new File(['x'], 'a.TXT'))).toBeNull();
    expect(checkFile(new File(['x'], 'notes', { type: 'text/plain' }))).toBeNull();
    expect(checkFile(new File(['x'], 'a.pdf', { type: 'application/pdf' }))).toBe('Please upload a .txt file');
  });

  it('refuses files over 10 MB', () => {
    const big = new File(['x'], 'big.txt', { type: 'text/plain' });
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    expect(checkFile(big)).toBe('The file is larger than 10 MB');
  });

  it('titles from the file name without its extension', () => {
    expect(titleFromFileName('the-raven.txt')).toBe('the-raven');
    expect(titleFromFileName('a.b.txt')).toBe('a.b');
    expect(titleFromFileName('README')).toBe('README');
  });

  it('reads the text, or fails with the spec message', async () => {
    await expect(readFileText(new File(['hello'], 'a.txt'))).resolves.toBe('hello');
    const broken = { text: () => Promise.reject(new Error('io')) } as unknown as Blob;
    await expect(readFileText(broken)).rejects.toThrow('Failed to read file content');
  });
});
