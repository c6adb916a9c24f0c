import { describe, expect, it } from 'vitest';
import {
  canSubmit,
  chapterChoice,
  checkFile,
  costLines,
  countedCharacters,
  initiallyChosen,
  formatListening,
  CONTENT_REQUIRED,
  initialUploadForm,
  jobRequest,
  readFileText,
  switchMode,
  titleFromFileName,
  validateUpload,
  whyCannotSubmit,
} from './form';

const story = 'A'.repeat(100);

describe('upload form schema', () => {
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
    expect(validateUpload({ ...initialUploadForm, title: '   ', textContent: story })).toEqual({
      title: 'Title is required',
    });
  });
});

describe('upload modes', () => {
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
    expect(jobRequest(form, {})).toEqual({
      title: 'Tale',
      content: story,
      voice_config: { provider: 'openai', voice_id: 'alloy' },
    });
  });
  it('sends a url as url', () => {
    expect(jobRequest({ ...form, textContent: '', url: 'https://x.org', ttsProvider: 'elevenlabs' }, {})).toEqual({
      title: 'Tale',
      url: 'https://x.org',
      voice_config: { provider: 'elevenlabs', voice_id: 'adam' },
    });
  });
  it('sends the voice chosen in the picker, of any source', () => {
    expect(jobRequest({ ...form, ttsProvider: 'openai_compatible', voiceId: 'bm_george' }, {})).toMatchObject({
      voice_config: { provider: 'openai_compatible', voice_id: 'bm_george' },
    });
    expect(jobRequest({ ...form, ttsProvider: 'offline', voiceId: '' }, {})).toMatchObject({
      voice_config: { provider: 'offline', voice_id: 'en-us+f3' },
    });
    // A voice server's voice is its own to default: none is named.
    expect(jobRequest({ ...form, ttsProvider: 'openai_compatible', voiceId: '' }, {}).voice_config).toEqual({
      provider: 'openai_compatible',
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
  it('accepts .txt, .epub, .pdf, .md and .html by name, or text/plain by type', () => {
    expect(checkFile(new File(['x'], 'a.TXT'))).toBeNull();
    expect(checkFile(new File(['x'], 'notes', { type: 'text/plain' }))).toBeNull();
    for (const name of ['book.epub', 'book.pdf', 'notes.md', 'page.html', 'page.HTM'])
      expect(checkFile(new File(['x'], name))).toBeNull();
    expect(checkFile(new File(['x'], 'a.docx'))).toBe('Please upload a .txt, .epub, .pdf, .md or .html file');
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

  it('reads the text, or fails with the documented message', async () => {
    await expect(readFileText(new File(['hello'], 'a.txt'))).resolves.toBe('hello');
    const broken = { text: () => Promise.reject(new Error('io')) } as unknown as Blob;
    await expect(readFileText(broken)).rejects.toThrow('Failed to read file content');
  });
});

describe('preview', () => {
  const preview = {
    job_type: 'book_processing' as const,
    title: 'Book',
    author: null,
    has_cover: false,
    chapters: [
      { index: 0, title: 'Front', characters: 100, words: 20, estimated_seconds: 5, front_matter: true },
      { index: 1, title: 'One', characters: 300, words: 60, estimated_seconds: 15, front_matter: false },
      { index: 2, title: 'Two', characters: 600, words: 120, estimated_seconds: 30, front_matter: false },
    ],
    total_characters: 1000,
    estimated_seconds: 50,
    characters_per_second: 20,
    estimated_cost: [
      { provider: 'offline' as const, model: 'espeak-ng', usd: 0 },
      { provider: 'openai' as const, model: 'gpt-4o-mini-tts', usd: 2 },
    ],
  };

  it('sends chapters only when some are left out, and titles only where changed', () => {
    expect(chapterChoice(preview, new Set([0, 1, 2]), { 1: 'One' })).toEqual({});
    expect(chapterChoice(preview, new Set([1, 2]), { 2: ' Second  ', 0: 'Ignored, not chosen' })).toEqual({
      chapters: [1, 2],
      chapter_titles: [{ index: 2, title: 'Second' }],
    });
    // An emptied title keeps the book's own.
    expect(chapterChoice(preview, new Set([0, 1, 2]), { 1: '   ' })).toEqual({});
  });

  it('scales each cost to the chosen characters; the offline voice is free', () => {
    expect(costLines(preview, 900)).toEqual(['Offline voice: free', 'OpenAI (gpt-4o-mini-tts): $1.80']);
    expect(costLines(preview, 1)).toEqual(['Offline voice: free', 'OpenAI (gpt-4o-mini-tts): under $0.01']);
  });

  it('ticks every chapter but the front matter at first (all of them when nothing else is left)', () => {
    expect([...initiallyChosen(preview)]).toEqual([1, 2]);
    const onlyFront = { chapters: preview.chapters.map((c) => ({ ...c, front_matter: true })) };
    expect([...initiallyChosen(onlyFront)]).toEqual([0, 1, 2]);
  });

  it('says the listening time in minutes and hours', () => {
    expect(formatListening(42)).toBe('under a minute');
    expect(formatListening(600)).toBe('about 10 min');
    expect(formatListening(3600)).toBe('about 1 h');
    expect(formatListening(4500)).toBe('about 1 h 15 min');
  });
});

describe('a paste of spaces', () => {
  const form = { ...initialUploadForm, title: 'Blank', textContent: ' \n\t '.repeat(40) };

  it('counts no characters, is not enough text, and says why Create waits', () => {
    expect(countedCharacters(form.textContent)).toBe(0);
    expect(validateUpload(form)?.textContent).toBe('Either provide text content (min 100 characters) or a valid URL');
    expect(canSubmit(form, null)).toBe(false);
    expect(whyCannotSubmit('text', form, null)).toBe(
      "Only spaces so far: paste or type the story's text (at least 100 characters).",
    );
    expect(whyCannotSubmit('text', { ...form, textContent: '' }, null)).toMatch(/^Paste or type the story's text/);
    expect(whyCannotSubmit('url', { ...form, textContent: '' }, null)).toBe("Enter the web page's address.");
    expect(whyCannotSubmit('text', { ...form, textContent: 'A story.' }, null)).toBeNull();
  });
});
