import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  changePasswordHandler,
  deleteAccountHandler,
  preferencesHandler,
  putPreferencesHandler,
  signOutEverywhereHandler,
} from '../../mocks/account';
import { errorBodyFixture } from '../../mocks/fixtures';
import { meHandler } from '../../mocks/handlers';
import { Account } from './Account';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * The reader’s account: how much of their storage their books, uploads and downloads take (as
 * words and as a meter, with a hint when it is nearly full), the voice and the listening speed new
 * books start with, light
 * or dark, their password, signing out on every device, and deleting the account.
 */
const meta = {
  title: 'Screens/Account',
  component: Account,
  parameters: {
    route: '/account',
    auth: { user: {} },
    routeStubs: ['/login'],
    msw: { handlers: { me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }) } },
  },
} satisfies Meta<typeof Account>;

export default meta;
type Story = StoryObj<typeof meta>;

const meterOf = async (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('meter', { name: 'Storage used' });

/** One section of the page, by its heading. */
const sectionOf = async (canvasElement: HTMLElement, name: string) =>
  within(await within(canvasElement).findByRole('region', { name }, { timeout: 5000 }));

const estimatorLoad = { timeout: 15_000 };

/** A reader with plenty of room: what is used, what is left, and no warning. */
export const PlentyOfRoom: Story = {
  name: 'Plenty of room',
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('heading', { level: 2, name: 'Storage' })).toBeVisible();
    await expect(canvas.getByText('12 MB of 2 GB used')).toBeVisible();
    await expect(canvas.getByText('2 GB left')).toBeVisible();
    const meter = await meterOf(canvasElement);
    await expect(meter).toHaveAttribute('aria-valuenow', '1');
    await expect(meter).toHaveAttribute('aria-valuetext', '12 MB of 2 GB used (1%)');
    await expect(canvas.getByText('Signed in as reader@example.com')).toBeVisible();
    const storage = await sectionOf(canvasElement, 'Storage');
    await expect(storage.queryByRole('alert')).toBeNull();
    await expect(canvas.queryByText(/nearly full/)).toBeNull();
    // Every section is on the page, named by its heading.
    for (const name of ['Voice and speed for new books', 'Appearance', 'Password', 'Devices', 'Delete your account']) {
      await expect(await canvas.findByRole('region', { name })).toBeVisible();
    }
  },
};

/** Past nine tenths of the quota: the meter turns red and a hint says how to make room. */
export const NearlyFull: Story = {
  name: 'Nearly full: a hint to make room',
  parameters: {
    msw: { handlers: { me: meHandler({ storage: { used_bytes: 1900 * MB, quota_bytes: 2 * GB } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('1.9 GB of 2 GB used')).toBeVisible();
    await expect(canvas.getByText('148 MB left')).toBeVisible();
    await expect(await meterOf(canvasElement)).toHaveAttribute('aria-valuenow', '93');
    const storage = await sectionOf(canvasElement, 'Storage');
    await expect(storage.getByRole('status')).toHaveTextContent(
      'Your storage is nearly full. A new book may not fit: delete books you no longer need to make room.',
    );
  },
};

/** Nothing left: the reader is told that new books wait until they delete some. */
export const Full: Story = {
  name: 'Full: new books cannot be added',
  parameters: {
    msw: { handlers: { me: meHandler({ storage: { used_bytes: 500 * MB, quota_bytes: 500 * MB } }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('500 MB of 500 MB used')).toBeVisible();
    await expect(canvas.getByText('No space left')).toBeVisible();
    await expect(await meterOf(canvasElement)).toHaveAttribute('aria-valuenow', '100');
    const storage = await sectionOf(canvasElement, 'Storage');
    await expect(storage.getByRole('alert')).toHaveTextContent(
      'Your storage is full. New books cannot be added until you delete books you no longer need.',
    );
  },
};

/** While the server is asked. */
export const Loading: Story = {
  parameters: { msw: { handlers: { me: meHandler({ delay: 'infinite' }) } } },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent('Loading your account...');
  },
};

/** The server cannot say: its reason, and nothing made up. */
export const LoadError: Story = {
  name: 'Error: the account cannot be loaded',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({
          status: 503,
          body: errorBodyFixture('The database is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'The database is unavailable for a moment; try again shortly',
    );
    await expect(canvas.queryByRole('meter')).toBeNull();
  },
};

/** A default voice was saved: the picker shows it, and another can be saved or the default forgotten. */
export const DefaultVoice: Story = {
  name: 'Voice for new books: saved',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
        preferences: preferencesHandler({ provider: 'openai', voice_id: 'nova' }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const voice = await sectionOf(canvasElement, 'Voice and speed for new books');
    await expect(await voice.findByText(/New books start with the voice saved here/)).toBeVisible();
    await expect(await voice.findByRole('radio', { name: /Nova/ }, { timeout: 5000 })).toBeChecked();
    await userEvent.click(voice.getByRole('button', { name: 'Forget the default voice' }));
    await expect(await voice.findByText('Cleared: new books start with the voice you last chose.')).toBeVisible();
  },
};

/** No default voice yet: the reader picks one and saves it. */
export const SaveDefaultVoice: Story = {
  name: 'Voice for new books: saving one',
  play: async ({ canvasElement }) => {
    const voice = await sectionOf(canvasElement, 'Voice and speed for new books');
    await expect(await voice.findByText(/No voice saved yet/)).toBeVisible();
    await expect(voice.getByRole('combobox', { name: 'Listening speed' })).toHaveValue('1');
    await userEvent.click(await voice.findByRole('radio', { name: /Nova/ }, { timeout: 5000 }));
    await userEvent.click(voice.getByRole('button', { name: 'Save as default voice' }));
    await expect(await voice.findByText('Saved: new books start with this voice.')).toBeVisible();
  },
};

const nova = { provider: 'openai', voice_id: 'nova' } as const;

/**
 * A speed was saved: the choice shows it; picking another saves it at once, and the saved voice
 * stays as it is.
 */
export const DefaultSpeed: Story = {
  name: 'Speed for new books: saved, then another chosen',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
        preferences: preferencesHandler(nova, {}, 1.5),
        putPreferences: putPreferencesHandler({}, { default_voice: nova, default_speed: 1.5 }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const section = await sectionOf(canvasElement, 'Voice and speed for new books');
    const speed = await section.findByRole('combobox', { name: 'Listening speed' });
    await expect(speed).toHaveValue('1.5');
    await expect(section.getByRole('option', { name: '1.5×' })).toHaveProperty('selected', true);
    await userEvent.selectOptions(speed, '1.25×');
    await expect(await section.findByText('Saved: new books play at 1.25×.')).toBeVisible();
    await expect(speed).toHaveValue('1.25');
    await expect(await section.findByRole('radio', { name: /Nova/ }, { timeout: 5000 })).toBeChecked();
  },
};

/** The speed cannot be saved: the server's reason shows, and the saved speed stays chosen. */
export const DefaultSpeedFails: Story = {
  name: 'Speed for new books: saving fails',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
        putPreferences: putPreferencesHandler({
          status: 503,
          body: errorBodyFixture('The database is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const section = await sectionOf(canvasElement, 'Voice and speed for new books');
    const speed = await section.findByRole('combobox', { name: 'Listening speed' });
    await expect(speed).toHaveValue('1');
    await userEvent.selectOptions(speed, '2×');
    await expect(await section.findByRole('alert')).toHaveTextContent(
      'The database is unavailable for a moment; try again shortly',
    );
    await expect(speed).toHaveValue('1');
  },
};

/** Light, dark or the device's setting: the choice applies at once. */
export const Theme: Story = {
  name: 'Appearance: light, dark or the device',
  play: async ({ canvasElement }) => {
    const appearance = await sectionOf(canvasElement, 'Appearance');
    await expect(appearance.getByRole('radio', { name: 'Same as this device' })).toBeChecked();
    await userEvent.click(appearance.getByRole('radio', { name: 'Dark' }));
    await expect(appearance.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expect(localStorage.getItem('lectio.colorScheme')).toBe('dark');
    // Back to the device's setting, as every other story expects.
    await userEvent.click(appearance.getByRole('radio', { name: 'Same as this device' }));
    await expect(localStorage.getItem('lectio.colorScheme')).toBeNull();
  },
};

async function changePassword(canvasElement: HTMLElement, current: string, next: string) {
  const password = await sectionOf(canvasElement, 'Password');
  await userEvent.type(password.getByLabelText('Current password'), current);
  await userEvent.type(password.getByLabelText('New password'), next);
  await userEvent.type(password.getByLabelText('Confirm new password'), next);
  await userEvent.click(password.getByRole('button', { name: 'Change password' }));
  return password;
}

/** A new password: the other devices are signed out, this one stays signed in with a new token. */
export const PasswordChanged: Story = {
  name: 'Password: changed',
  play: async ({ canvasElement }) => {
    const password = await changePassword(canvasElement, 'correct horse battery', 'violet lantern orchard');
    await expect(
      await password.findByText(/Your password is changed\. Every other device was signed out/, {}, estimatorLoad),
    ).toBeVisible();
    await expect(localStorage.getItem('access_token')).toBe('token-after-change');
    await expect(password.getByLabelText('Current password')).toHaveValue('');
  },
};

/** The current password is wrong: the server's reason, and nothing changes. */
export const PasswordWrong: Story = {
  name: 'Password: the current one is wrong',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
        changePassword: changePasswordHandler({
          status: 422,
          body: errorBodyFixture('Your current password is not right'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const password = await changePassword(canvasElement, 'not my password', 'violet lantern orchard');
    await expect(await password.findByRole('alert', {}, estimatorLoad)).toHaveTextContent(
      'Your current password is not right',
    );
    await expect(localStorage.getItem('access_token')).toBe('story-token');
  },
};

/** A new password that is too easy to guess, or mistyped: the fields say why before anything is sent. */
export const PasswordWeak: Story = {
  name: 'Password: too easy to guess',
  play: async ({ canvasElement }) => {
    const password = await changePassword(canvasElement, 'correct horse battery', 'password');
    await expect(await password.findByText(/^This password is too easy to guess\./, {}, estimatorLoad)).toBeVisible();
  },
};

/** Sign out everywhere: this device too, back to sign-in. */
export const SignOutEverywhere: Story = {
  name: 'Devices: sign out everywhere',
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const devices = await sectionOf(canvasElement, 'Devices');
    await userEvent.click(devices.getByRole('button', { name: 'Sign out everywhere' }));
    await within(canvasElement).findByRole('heading', { name: 'Navigated to /login' });
    await expect(localStorage.getItem('access_token')).toBeNull();
  },
};

/** The server cannot sign out everywhere: the reason shows and the reader stays signed in. */
export const SignOutEverywhereFails: Story = {
  name: 'Devices: signing out fails',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
        signOutEverywhere: signOutEverywhereHandler({ status: 503 }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const devices = await sectionOf(canvasElement, 'Devices');
    await userEvent.click(devices.getByRole('button', { name: 'Sign out everywhere' }));
    await expect(await devices.findByRole('alert')).toHaveTextContent(/sign out everywhere/i);
    await expect(localStorage.getItem('access_token')).toBe('story-token');
  },
};

/** Deleting the account: the dialog asks for the email; a wrong one is refused before anything is sent. */
export const DeleteConfirmation: Story = {
  name: 'Delete: the confirmation',
  tags: ['navigates'],
  play: async ({ canvasElement }) => {
    const section = await sectionOf(canvasElement, 'Delete your account');
    await userEvent.click(section.getByRole('button', { name: 'Delete account...' }));
    const dialog = within(await within(document.body).findByRole('dialog', { name: 'Delete your account?' }));
    await userEvent.type(dialog.getByLabelText('Your email'), 'someone@example.com');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete my account and everything in it' }));
    await expect(dialog.getByLabelText('Your email')).toHaveAccessibleDescription(
      'Type reader@example.com to confirm.',
    );
    await userEvent.clear(dialog.getByLabelText('Your email'));
    await userEvent.type(dialog.getByLabelText('Your email'), 'Reader@Example.com');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete my account and everything in it' }));
    await within(canvasElement).findByRole('heading', { name: 'Navigated to /login' });
    await waitFor(() => expect(localStorage.getItem('access_token')).toBeNull());
  },
};

/** Keep my account: the dialog closes and nothing is deleted. */
export const DeleteCancelled: Story = {
  name: "Delete: changing one's mind",
  play: async ({ canvasElement }) => {
    const section = await sectionOf(canvasElement, 'Delete your account');
    await userEvent.click(section.getByRole('button', { name: 'Delete account...' }));
    const dialog = await within(document.body).findByRole('dialog', { name: 'Delete your account?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    await waitFor(() => expect(within(document.body).queryByRole('dialog')).toBeNull());
    await expect(localStorage.getItem('access_token')).toBe('story-token');
  },
};

/** The server fails to delete: its reason shows in the dialog, and the reader stays signed in. */
export const DeleteFails: Story = {
  name: 'Delete: the server fails',
  parameters: {
    msw: {
      handlers: {
        me: meHandler({ storage: { used_bytes: 12 * MB, quota_bytes: 2 * GB } }),
        deleteAccount: deleteAccountHandler({
          status: 503,
          body: errorBodyFixture('The file store is unavailable for a moment; try again shortly'),
        }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const section = await sectionOf(canvasElement, 'Delete your account');
    await userEvent.click(section.getByRole('button', { name: 'Delete account...' }));
    const dialog = within(await within(document.body).findByRole('dialog', { name: 'Delete your account?' }));
    await userEvent.type(dialog.getByLabelText('Your email'), 'reader@example.com');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete my account and everything in it' }));
    await expect(await dialog.findByRole('alert')).toHaveTextContent(
      'The file store is unavailable for a moment; try again shortly',
    );
    await expect(localStorage.getItem('access_token')).toBe('story-token');
  },
};
