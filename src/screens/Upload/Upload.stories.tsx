import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { JobCreateRequest } from '../../api/gen/model';
import { errorBodyFixture } from '../../mocks/fixtures';
import { createdJobId, createJobHandler, uploadFileHandler } from '../../mocks/library';
import { Upload } from './Upload';

/** What the screen sent, recorded by the handlers below (cleared before every story). */
const sent: { jobs: JobCreateRequest[]; files: { name: string; text: string }[] } = { jobs: [], files: [] };

const recordJob = (body: JobCreateRequest) => void sent.jobs.push(body);
const recordFile = async (file: File) => void sent.files.push({ name: file.name, text: await file.text() });

const story = 'Once upon a midnight dreary, while I pondered, weak and weary, over many a quaint and curious volume of forgotten lore.';

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
      },
    },
  },
  beforeEach: () => {
    sent.jobs.length = 0;
    sent.files.length = 0;
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
  const drag = (type: string) => zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  drag('dragenter');
  drag('dragover');
  await waitFor(() => expect(zone).toHaveAttribute('data-dragging', 'true'));
  drag('drop');
  return canvas;
}

export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Upload Story' })).toBeVisible();
    await expect(canvas.getByLabelText('Job Title')).toHaveValue('');
    await expect(canvas.getByLabelText('Voice Provider')).toHaveValue('openai');
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

export const TextTabValidationErrors: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.selectOptions(canvas.getByLabelText('Voice Provider'), '');
    await userEvent.type(canvas.getByLabelText('Story Text'), 'Too short.');
    await submit(canvas);
    await expect(canvas.getByText('Title is required')).toBeVisible();
    await expect(canvas.getByText('Please select a TTS provider')).toBeVisible();
    await expect(canvas.getByLabelText('Story Text')).toHaveAccessibleDescription(
      '10 characters (minimum 100) Either provide text content (min 100 characters) or a valid URL',
    );
    await expect(canvas.getByLabelText('Job Title')).toHaveAttribute('aria-invalid', 'true');
    // Corrections clear their messages.
    await userEvent.type(canvas.getByLabelText('Job Title'), 'The Raven');
    await userEvent.selectOptions(canvas.getByLabelText('Voice Provider'), 'elevenlabs');
    await expect(canvas.queryByText('Title is required')).toBeNull();
    await expect(canvas.queryByText('Please select a TTS provider')).toBeNull();
    await expect(sent.jobs).toHaveLength(0);
  },
};

export const FileTab: Story = {
  play: async ({ canvasElement, step }) => {
    const canvas = await dropFile(canvasElement, new File([story], 'the-raven.txt', { type: 'text/plain' }));
    await step('the file is read: its name, its character count and the title', async () => {
      await expect(await canvas.findByText('the-raven.txt')).toBeVisible();
      await expect(canvas.getByText(`${story.length} characters (minimum 100)`)).toBeVisible();
      await expect(canvas.getByLabelText('Job Title')).toHaveValue('the-raven');
      await expect(canvas.getByText('TXT files up to 10MB')).toBeVisible();
    });
    await step('Remove clears the file and the text, not the title', async () => {
      await userEvent.click(canvas.getByRole('button', { name: 'Remove the-raven.txt' }));
      await expect(canvas.queryByText('the-raven.txt')).toBeNull();
      await expect(canvas.getByText('0 characters (minimum 100)')).toBeVisible();
      await expect(canvas.getByText('TXT files up to 10MB')).toBeVisible();
      await expect(canvas.getByLabelText('Job Title')).toHaveValue('the-raven');
      await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeDisabled();
    });
  },
};

export const WrongFileType: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await dropFile(canvasElement, new File(['%PDF-1.4'], 'cover.pdf', { type: 'application/pdf' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Please upload a .txt file');
    await waitFor(() => expect(canvas.getByTestId('file-drop')).toHaveAttribute('data-dragging', 'false'));
    await expect(canvas.getByLabelText('Job Title')).toHaveValue('');
  },
};

export const FileTooLarge: Story = {
  play: async ({ canvasElement }) => {
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.txt', { type: 'text/plain' });
    const canvas = await dropFile(canvasElement, big);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The file is larger than 10 MB');
  },
};

export const UrlTab: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Job Title'), 'Web story');
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
  await userEvent.type(canvas.getByLabelText('Job Title'), 'The Raven');
  // Paste rather than type: 120 characters one by one would only slow the story down.
  canvas.getByLabelText('Story Text').focus();
  await userEvent.paste(story);
  return canvas;
}

export const Submitting: Story = {
  parameters: { msw: { handlers: { createJob: createJobHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await submit(canvas);
    await expect(await canvas.findByRole('button', { name: 'Creating...' })).toBeDisabled();
  },
};

export const ServerError: Story = {
  parameters: {
    msw: { handlers: { createJob: createJobHandler({ status: 422, body: errorBodyFixture('Text is too long for one job') }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await submit(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Text is too long for one job');
    await expect(canvas.getByRole('button', { name: 'Create Audiobook' })).toBeEnabled();
  },
};

export const ServerErrorDefaultMessage: Story = {
  parameters: { msw: { handlers: { createJob: createJobHandler({ status: 500 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await submit(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to create job. Please try again.');
  },
};

export const Cancel: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel' }));
    await expect(await canvas.findByRole('heading', { name: 'Navigated to /dashboard' })).toBeVisible();
  },
};

export const Success: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await fillText(canvasElement);
    await userEvent.selectOptions(canvas.getByLabelText('Voice Provider'), 'elevenlabs');
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.files).toEqual([]);
    await expect(sent.jobs).toEqual([
      { title: 'The Raven', content: story, voice_config: { provider: 'elevenlabs', voice_id: 'adam' } },
    ]);
  },
};

export const SuccessFromFile: Story = {
  parameters: { msw: { handlers: { uploadFile: uploadFileHandler({ fileKey: 'uploads/reader/the-raven.txt', onFile: recordFile }) } } },
  play: async ({ canvasElement }) => {
    const canvas = await dropFile(canvasElement, new File([story], 'the-raven.txt', { type: 'text/plain' }));
    await canvas.findByText('the-raven.txt');
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    // The file went up first, then the job was created from its key alone.
    await expect(sent.files).toEqual([{ name: 'the-raven.txt', text: story }]);
    await waitFor(() =>
      expect(sent.jobs).toEqual([
        { title: 'the-raven', file_key: 'uploads/reader/the-raven.txt', voice_config: { provider: 'openai', voice_id: 'alloy' } },
      ]),
    );
  },
};

export const SuccessFromUrl: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Job Title'), 'Web story');
    await userEvent.click(canvas.getByRole('tab', { name: 'URL' }));
    await userEvent.type(canvas.getByLabelText('Web Page URL'), 'https://example.com/story');
    await submit(canvas);
    await expect(await canvas.findByRole('heading', { name: `Navigated to /jobs/${createdJobId}` })).toBeVisible();
    await expect(sent.jobs).toEqual([
      { title: 'Web story', url: 'https://example.com/story', voice_config: { provider: 'openai', voice_id: 'alloy' } },
    ]);
  },
};
