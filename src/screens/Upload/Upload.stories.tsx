import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { JobCreateRequest } from '../../api/gen/model';
import { preferencesHandler } from '../../mocks/account';
import { castPreviewHandler } from '../../mocks/cast';
import { errorBodyFixture } from '../../mocks/fixtures';
import { voiceListFixture, voicesHandler } from '../../mocks/voices';
import {
  cloudPreviewFixture,
  createdJobId,
  createJobHandler,
  previewJobHandler,
  textPreviewFixture,
  uploadFileHandler,
} from '../../mocks/library';
import { Upload } from './Upload';

/** What the screen sent, recorded by the handlers below (cleared before every story). */
const sent: { jobs: JobCreateRequest[]; files: { name: string; text: string }[]; previews: JobCreateRequest[] } = {
  jobs: [],
  files: [],
  previews: [],
};

const recordJob = (body: JobCreateRequest) => void sent.jobs.push(body);
const recordPreview = (body: JobCreateRequest) => void sent.previews.push(body);
const recordFile = async (file: File) => void sent.files.push({ name: file.name, text: await file.text() });

const story =
  'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.';

/**
 * Add a book: paste text, choose a file (EPUB, PDF, Markdown, HTML, .txt) or give a web address; preview the
 * chapters, listening time and cost, pick a voice and create the audiobook.
 */
const meta = {
  title: 'Screens/Upload',
  component: Upload,
  parameters: {
    auth: { user: {} },
    route: '/upload',
    routeStubs: ['/dashboard', `/jobs/${createdJobId}`],
    msw: {
      handlers: {
        createJob: createJobHandler({ onBody: recordJob }),
        uploadFile: uploadFileHandler({ onFile: recordFile }),
        previewJob: previewJobHandler({ onBody: recordPreview }),
      },
    },
  },
  beforeEach: () => {
    sent.jobs.length = 0;
    sent.files.length = 0;
    sent.previews.length = 0;
  },
} satisfies Meta<typeof Upload>;

export default meta;
type Story = StoryObj<typeof meta>;

const submit = (canvas: ReturnType<typeof within>) =>
  userEvent.click(canvas.getByRole('button', { name: 'Create Audiobook' }));

async function dropFile(canvasElement: HTMLElement, file: File) {
  const canvas = within(canvasElement);
  await userEvent.click(canvas.getByRole('tab', { name: 'File Upload' }));
  const zone = canvas.getByTestId('file-drop');
  // A real DataTransfer carried by real drag events, as the browser sends them.
  const transfer = new DataTransfer();
  transfer.items.add(file);
  const drag = (type: string) =>
    zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  drag('dragenter');
  drag('dragover');
  await waitFor(() => expect(zone).toHaveAttribute('data-dragging', 'true'));
  drag('drop');
  return canvas;
}

/** The reader opens Add a book: the text tab, empty, with the voice picker. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Add a book' })).toBeVisible();
    await expect(canvas.getByLabelText('Title')).toHaveValue('');
    // The voice picker starts on the server's default voice.
    await waitFor(() => expect(canvas.getByRole('radio', { name: 'Alloy' })).toBeChecked());
    const tabs = canvas.getAllByRole('tab');
    await expect(tabs.map((tab) => tab.textContent)).toEqual(['Text Input', 'File Upload', 'URL']);
    await expect(canvas.getByRole('tab', { name: 'Text Input' })).toHaveAttribute('aria-selected', 'true');
    const text = canvas.getByLabelText('Story Text');
    await expect(text).toHaveAttribute('rows', '12');
    await expect(text).toHaveAccessibleDescription('0 characters (minimum 100)');
    await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeDisabled();
    // Typing anything enables submit; the counter follows.
    await userEvent.type(text, 'Hello');
    await expect(canvas.getByText('5 characters (minimum 100)')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeEnabled();
    // The tablist works from the keyboard.
    canvas.getByRole('tab', { name: 'Text Input' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(canvas.getByRole('tab', { name: 'File Upload' })).toHaveFocus();
    await expect(canvas.getByRole('tab', { name: 'File Upload' })).toHaveAttribute('aria-selected', 'true');
  },
};

/** Create pressed with no title or text: each field says what is missing. */
export const TextTabValidationErrors: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Story Text'), 'Too short.');
    await submit(canvas);
    await expect(canvas.getByText('Title is required')).toBeVisible();
    await expect(canvas.getByLabelText('Story Text')).toHaveAccessibleDescription(
      '10 characters (minimum 100) Either provide text content (min 100 characters) or a valid URL',
    );
    await expect(canvas.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    // Corrections clear their messages.
    await userEvent.type(canvas.getByLabelText('Title'), 'The Raven');
    await expect(canvas.queryByText('Title is required')).toBeNull();
    await expect(sent.jobs).toHaveLength(0);
  },
};

/** A .txt file previews as one piece of text. */
const txtPreview = previewJobHandler({
  preview: (body) => textPreviewFixture(body.title, story.length),
  onBody: recordPreview,
});

/** The file tab: the reader picks a book file. */
export const FileTab: Story = {
  parameters: { msw: { handlers: { previewJob: txtPreview } } },
  play: async ({ canvasElement, step }) => {
    const canvas = await dropFile(canvasElement, new File([story], 'the-raven.txt', { type: 'text/plain' }));
    await step('the file is read: its name, its character count and the title', async () => {
      await expect(await canvas.findByText('the-raven.txt')).toBeVisible();
      await expect(canvas.getByText(`${story.length} characters (minimum 100)`)).toBeVisible();
      await expect(canvas.getByLabelText('Title')).toHaveValue('the-raven');
      await expect(canvas.getByText('TXT, EPUB, PDF, Markdown or HTML files up to 10MB')).toBeVisible();
    });
    await step('Remove clears the file, the text and the title its name gave', async () => {
      await userEvent.click(canvas.getByRole('button', { name: 'Remove the-raven.txt' }));
      await expect(canvas.queryByText('the-raven.txt')).toBeNull();
      await expect(canvas.getByText('0 characters (minimum 100)')).toBeVisible();
      await expect(canvas.getByText('TXT, EPUB, PDF, Markdown or HTML files up to 10MB')).toBeVisible();
      await expect(canvas.getByLabelText('Title')).toHaveValue('');
      await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeDisabled();
    });
  },
};

/** A file of a kind Lectio cannot read: the page names the kinds it can. */
export const WrongFileType: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await dropFile(
      canvasElement,
      new File(['PK'], 'letter.docx', {
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    );
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'Please upload a .txt, .epub, .pdf, .md or .html file',
    );
    await waitFor(() => expect(canvas.getByTestId('file-drop')).toHaveAttribute('data-dragging', 'false'));
    await expect(canvas.getByLabelText('Title')).toHaveValue('');
  },
};

/** A file over the size limit: refused before any upload, with the limit stated. */
export const FileTooLarge: Story = {
  play: async ({ canvasElement }) => {
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.txt', { type: 'text/plain' });
    const canvas = await dropFile(canvasElement, big);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The file is larger than 10 MB');
  },
};

/** The web page tab: the reader gives an address to turn into an audiobook. */
export const UrlTab: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Title'), 'Web story');
    await userEvent.type(canvas.getByLabelText('Story Text'), 'Some text that will be cleared');
    await userEvent.click(canvas.getByRole('tab', { name: 'URL' }));
    const url = canvas.getByLabelText('Web Page URL');
    await userEvent.type(url, 'not a url');
    await submit(canvas);
    await expect(canvas.getByText('Please enter a valid URL')).toBeVisible();
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    // Switching to URL cleared the text; switching back to text clears the url.
    await userEvent.click(canvas.getByRole('tab', { name: 'Text Input' }));
    await expect(canvas.getByLabelText('Story Text')).toHaveValue('');
    await userEvent.click(canvas.getByRole('tab', { name: 'URL' }));
    await expect(canvas.getByLabelText('Web Page URL')).toHaveValue('');
  },
};

async function fillText(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.type(canvas.getByLabelText('Title'), 'The Raven');
  // Paste rather than type: 120 characters one by one would only slow the story down.
  canvas.getByLabelText('Story Text').focus();
  await userEvent.paste(story);
  return canvas;
}

/** While the audiobook is created: the button is busy. */
export const Submitting: Story = {
  parameters: { msw: { handlers: { createJob: createJobHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await submit(canvas);
    await expect(await canvas.findByRole('button', { name: 'Creating...' })).toBeDisabled();
  },
};

/** The server refuses the job (e.g. a quota reached): its message is shown. */
export const ServerError: Story = {
  parameters: {
    msw: {
      handlers: {
        createJob: createJobHandler({ status: 422, body: errorBodyFixture('Text is too long for one job') }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await submit(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Text is too long for one job');
    await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeEnabled();
  },
};

/** A refusal without a message: the page words it itself. */
export const ServerErrorDefaultMessage: Story = {
  parameters: { msw: { handlers: { createJob: createJobHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await submit(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to create job. Please try again.');
  },
};

/** Cancel takes the reader back home without creating anything. */
export const Cancel: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /dashboard' })).toBeVisible();
  },
};

/** A pasted text becomes a job: the reader follows its conversion page. */
export const Success: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await userEvent.click(await canvas.findByRole('radio', { name: 'Adam' }));
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.files).toEqual([]);
    await expect(sent.jobs).toEqual([
      { title: 'The Raven', content: story, voice_config: { provider: 'elevenlabs', voice_id: 'adam' } },
    ]);
  },
};

/** The reader saved a voice for new books on the Account page: the form starts with it, and the job uses it. */
export const AccountDefaultVoice: Story = {
  name: "Starts with the account's default voice",
  tags: ['navigates'],
  parameters: { msw: { handlers: { preferences: preferencesHandler({ provider: 'openai', voice_id: 'nova' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await waitFor(() => expect(canvas.getByRole('radio', { name: 'Nova' })).toBeChecked());
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.jobs).toEqual([
      { title: 'The Raven', content: story, voice_config: { provider: 'openai', voice_id: 'nova' } },
    ]);
  },
};

/** A book file is uploaded and becomes a job. */
export const SuccessFromFile: Story = {
  tags: ['navigates'],
  parameters: {
    msw: {
      handlers: {
        uploadFile: uploadFileHandler({ fileKey: 'uploads/reader/the-raven.txt', onFile: recordFile }),
        previewJob: txtPreview,
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await dropFile(canvasElement, new File([story], 'the-raven.txt', { type: 'text/plain' }));
    await canvas.findByText('the-raven.txt');
    // The file goes up as soon as it is chosen; the button waits for it.
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeEnabled());
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    // The file went up first, then the job was created from its key alone.
    await expect(sent.files).toEqual([{ name: 'the-raven.txt', text: story }]);
    await waitFor(() =>
      expect(sent.jobs).toEqual([
        {
          title: 'the-raven',
          file_key: 'uploads/reader/the-raven.txt',
          voice_config: { provider: 'openai', voice_id: 'alloy' },
        },
      ]),
    );
  },
};

/** A web page becomes a job. */
export const SuccessFromUrl: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Title'), 'Web story');
    await userEvent.click(canvas.getByRole('tab', { name: 'URL' }));
    await userEvent.type(canvas.getByLabelText('Web Page URL'), 'https://example.com/story');
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.jobs).toEqual([
      { title: 'Web story', url: 'https://example.com/story', voice_config: { provider: 'openai', voice_id: 'alloy' } },
    ]);
  },
};

// -------------------------------------------------------------------------------------------
// Preview: chapters, listening time and cost before converting

const epub = () =>
  new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])], 'lighthouse.epub', { type: 'application/epub+zip' });

async function dropBook(canvasElement: HTMLElement) {
  const canvas = await dropFile(canvasElement, epub());
  await canvas.findByRole('list', { name: 'Chapters' }, { timeout: 3000 });
  return canvas;
}

/** While the preview is computed: the chapters and estimate are on their way. */
export const PreviewLoading: Story = {
  parameters: { msw: { handlers: { previewJob: previewJobHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'Reading the chapters and estimating the listening time...',
    );
    await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeEnabled();
  },
};

/** The preview of a pasted text: its length, listening time and cost. */
export const PreviewOfPastedText: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await expect(await canvas.findByText('under a minute', {}, { timeout: 3000 })).toBeVisible();
    await expect(canvas.getByText('Offline voice: free')).toBeVisible();
    // One piece of text: nothing to choose, the button stays as it was.
    await expect(canvas.queryByRole('list', { name: 'Chapters' })).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeEnabled();
    await expect(sent.previews).toEqual([
      { title: 'Untitled', content: story, voice_config: { provider: 'openai', voice_id: 'alloy' } },
    ]);
  },
};

/** A book file’s chapters, found before converting: the reader chooses and renames them. */
export const PreviewChapters: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = await dropBook(canvasElement);
    await step('the book is uploaded and its chapters listed, all chosen but the front matter', async () => {
      await expect(sent.files.map((f) => f.name)).toEqual(['lighthouse.epub']);
      const boxes = canvas.getAllByRole('checkbox', { name: /^Convert chapter/ });
      await expect(boxes).toHaveLength(6);
      // Copyright and Dedication start unticked; the text is chosen.
      await expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([false, false, true, true, true, true]);
      await expect(canvas.getByLabelText('Title of chapter 1')).toHaveValue('Copyright');
      await expect(canvas.getByLabelText('Title of chapter 3')).toHaveValue('The Keeper');
      // The book's title replaces the one made from the file name.
      await expect(canvas.getByLabelText('Title')).toHaveValue('The Lighthouse');
      await expect(canvas.getByText('Ada Marlow')).toBeVisible();
      // A book's characters are counted by the server (the estimate shows them), not in the browser.
      await expect(canvas.queryByText(/characters \(minimum 100\)/)).toBeNull();
      await expect(canvas.getByRole('button', { name: 'Convert 4 chapters' })).toBeEnabled();
      await expect(canvas.getByRole('heading', { name: 'Chapters (4 of 6 chosen)' })).toBeVisible();
      await expect(canvas.getByLabelText('Title of chapter 1')).toBeDisabled();
    });
    await step('ticking a front matter page back in updates the count and the time', async () => {
      await expect(canvas.getByText('about 55 min')).toBeVisible();
      await userEvent.click(canvas.getByRole('checkbox', { name: 'Convert chapter 1' }));
      await expect(canvas.getByRole('button', { name: 'Convert 5 chapters' })).toBeEnabled();
      await expect(canvas.getByRole('heading', { name: 'Chapters (5 of 6 chosen)' })).toBeVisible();
      await expect(canvas.getByText('about 56 min')).toBeVisible();
    });
  },
};

/** Only the chapters the reader kept are sent for conversion. */
export const ConvertChosenChapters: Story = {
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const canvas = await dropBook(canvasElement);
    const last = canvas.getByLabelText('Title of chapter 6');
    await userEvent.clear(last);
    await userEvent.type(last, 'A Note from the Author');
    await userEvent.click(canvas.getByRole('button', { name: 'Convert 4 chapters' }));
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.jobs).toEqual([
      {
        title: 'The Lighthouse',
        file_key: 'uploads/3f1c2a4e/story.txt',
        voice_config: { provider: 'openai', voice_id: 'alloy' },
        chapters: [2, 3, 4, 5],
        chapter_titles: [{ index: 5, title: 'A Note from the Author' }],
      },
    ]);
  },
};

/** Every chapter unticked: Create waits and says why. */
export const NothingSelected: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await dropBook(canvasElement);
    for (let n = 3; n <= 6; n += 1)
      await userEvent.click(canvas.getByRole('checkbox', { name: `Convert chapter ${n}` }));
    await expect(canvas.getByRole('button', { name: 'Convert 0 chapters' })).toBeDisabled();
    await expect(canvas.getByText('Choose at least one chapter to convert.')).toBeVisible();
    await expect(within(canvas.getByRole('group', { name: 'Estimate' })).getByText('under a minute')).toBeVisible();
  },
};

/** With a cloud voice chosen: the estimate includes its cost. */
export const EstimateWithCloudVoices: Story = {
  parameters: { msw: { handlers: { previewJob: previewJobHandler({ preview: cloudPreviewFixture() }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await dropBook(canvasElement);
    const costs = within(canvas.getByRole('group', { name: 'Estimate' }));
    await expect(costs.getByText('Offline voice: free')).toBeVisible();
    // The front matter starts unticked: the cost and the time are the text's.
    await expect(costs.getByText('OpenAI (gpt-4o-mini-tts): $0.99')).toBeVisible();
    await expect(costs.getByText('ElevenLabs (eleven_multilingual_v2): $5.94')).toBeVisible();
    await expect(costs.getByText('about 1 h 6 min')).toBeVisible();
  },
};

/** The server cannot read the uploaded file: its reason is shown. */
export const RefusedFile: Story = {
  parameters: {
    msw: {
      handlers: {
        uploadFile: uploadFileHandler({
          status: 422,
          body: errorBodyFixture(
            'This EPUB is protected by DRM (its text is encrypted), so it cannot be read aloud. Use a DRM-free copy of the book',
          ),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await dropFile(canvasElement, epub());
    await expect(await canvas.findByRole('alert')).toHaveTextContent('This EPUB is protected by DRM');
    // The refused file is not kept: another can be chosen, and nothing was previewed.
    await expect(canvas.getByRole('button', { name: 'Choose file' })).toBeVisible();
    await expect(canvas.queryByRole('list', { name: 'Chapters' })).toBeNull();
    await expect(sent.previews).toEqual([]);
    // Nor is the title its name gave.
    await expect(canvas.getByLabelText('Title')).toHaveValue('');
  },
};

/** A paste of only spaces: nothing is counted and Create says why it waits. */
export const BlankPaste: Story = {
  name: 'A paste of spaces: nothing counted, and Create says why it waits',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const text = canvas.getByLabelText('Story Text');
    text.focus();
    await userEvent.paste(' \n '.repeat(53));
    await expect(text).toHaveAccessibleDescription('0 characters (minimum 100)');
    const create = canvas.getByRole('button', { name: 'Create Audiobook' });
    await expect(create).toBeDisabled();
    await expect(create).toHaveAccessibleDescription(
      "Only spaces so far: paste or type the story's text (at least 100 characters).",
    );
    await expect(canvas.getByText(/^Only spaces so far/)).toBeVisible();
  },
};

/** A voice of the voice server beside Lectio, chosen by ear in the picker. */
export const VoiceServerVoice: Story = {
  name: 'A voice of the voice server, chosen by ear',
  tags: ['navigates'],
  parameters: { msw: { handlers: { voices: voicesHandler({ list: voiceListFixture({ server: 'ready' }) }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    const kokoro = await canvas.findByRole('region', { name: 'Kokoro' });
    await waitFor(() => expect(within(kokoro).getByRole('radio', { name: /^Heart/ })).toBeChecked());
    await userEvent.click(within(kokoro).getByRole('radio', { name: /^George/ }));
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.jobs).toEqual([
      { title: 'The Raven', content: story, voice_config: { provider: 'openai_compatible', voice_id: 'bm_george' } },
    ]);
  },
};

/** A full cast, chosen before converting: the preview finds who speaks, each voice is changed by ear. */
export const FullCastPreview: Story = {
  name: 'Full cast: the preview shows who speaks, each voice changeable and heard',
  tags: ['navigates'],
  parameters: {
    msw: {
      handlers: {
        voices: voicesHandler({ list: voiceListFixture({ server: 'ready' }) }),
        previewJob: castPreviewHandler({ onBody: recordPreview }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    const kokoro = await canvas.findByRole('region', { name: 'Kokoro' });
    await waitFor(() => expect(within(kokoro).getByRole('radio', { name: /^Heart/ })).toBeChecked());
    const fullCast = canvas.getByRole('switch', { name: 'Full cast' });
    // Off by default: the preview has no cast.
    await expect(fullCast).not.toBeChecked();
    await expect(canvas.queryByRole('region', { name: 'Full cast' })).toBeNull();
    await userEvent.click(fullCast);
    const cast = await canvas.findByRole('region', { name: 'Full cast' }, { timeout: 3000 });
    const marta = await within(cast).findByRole('combobox', { name: 'Voice of Marta' }, { timeout: 3000 });
    await expect(marta).toHaveValue('af_bella');
    await expect(within(cast).getByRole('combobox', { name: 'Voice of Tobias' })).toHaveValue('bm_george');
    await expect(
      within(cast).getByText('The narrator reads in Heart; each character in a voice of their own.'),
    ).toBeVisible();
    // Another voice for Marta, heard first.
    await userEvent.selectOptions(marta, 'af_heart');
    const hear = within(cast).getByRole('button', { name: 'Preview the voice of Marta' });
    await userEvent.click(hear);
    await waitFor(() => expect(hear).toHaveAttribute('aria-pressed', 'true'));
    await userEvent.click(hear);
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.previews.at(-1)?.voice_config).toEqual({
      provider: 'openai_compatible',
      voice_id: 'af_heart',
      cast: true,
    });
    await expect(sent.jobs).toEqual([
      {
        title: 'The Raven',
        content: story,
        voice_config: {
          provider: 'openai_compatible',
          voice_id: 'af_heart',
          cast: true,
          cast_voices: { marta: 'af_heart' },
        },
      },
    ]);
  },
};
