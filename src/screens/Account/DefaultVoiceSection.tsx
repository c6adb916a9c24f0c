import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import { getGetPreferencesQueryKey, useGetPreferences, usePutPreferences } from '../../api/gen/endpoints/auth';
import type { Preferences, PreferencesUpdate, TtsProvider } from '../../api/gen/model';
import { Alert, Button, SelectField, Spinner } from '../../components/ui';
import { PLAYBACK_RATES } from '../../features/player/settings';
import { VoicePicker } from '../../features/voices';
import { Actions, Muted, Section } from './Section';

interface Choice {
  provider: TtsProvider;
  voiceId: string;
}

const TITLE = 'Voice and speed for new books';

/** The speed choice is short: it need not span the card. */
const SpeedChoice = styled.div`
  max-width: 16rem;
`;

/** "1×" is called normal speed; the others as the player shows them ("1.5×"). */
const speedLabel = (rate: number) => (rate === 1 ? 'Normal (1×)' : `${rate}×`);
const speedOptions = PLAYBACK_RATES.map((rate) => ({ value: String(rate), label: speedLabel(rate) }));

/** Saves a partial update and puts the preferences the server answers into the cache. */
function useSavePreferences() {
  const queryClient = useQueryClient();
  const save = usePutPreferences();
  const [saved, setSaved] = useState<string | null>(null);
  const store = (update: PreferencesUpdate, message: string, onSaved?: () => void) => {
    setSaved(null);
    save.mutate(
      { data: update },
      {
        onSuccess: (answer: Preferences) => {
          queryClient.setQueryData(getGetPreferencesQueryKey(), answer);
          onSaved?.();
          setSaved(message);
        },
      },
    );
  };
  return { store, saved, pending: save.isPending, error: save.isError ? save.error : null };
}

/**
 * The voice new books start with and the speed the player starts a book at, kept with the account
 * (GET/PUT /auth/preferences): the upload page preselects the voice on any device, and a book the
 * listener has not set a speed for plays at the saved speed.
 */
export function DefaultVoiceSection() {
  const preferences = useGetPreferences({ query: { refetchOnMount: 'always' } });
  const voiceSave = useSavePreferences();
  const speedSave = useSavePreferences();
  const [choice, setChoice] = useState<Choice | null>(null);
  const speedHint = useId();

  if (preferences.isPending) return <Spinner label="Loading your voice and speed for new books..." />;
  if (preferences.isError) {
    return (
      <Section title={TITLE}>
        <Alert>
          {errorMessage(
            preferences.error,
            'Your voice and speed for new books could not be loaded. Reload the page to try again.',
          )}
        </Alert>
      </Section>
    );
  }
  const current = preferences.data.default_voice;
  const speed = preferences.data.default_speed ?? 1;
  const shown: Choice | null =
    choice ?? (current ? { provider: current.provider, voiceId: current.voice_id ?? '' } : null);
  const saveVoice = (update: PreferencesUpdate, message: string) =>
    voiceSave.store(update, message, () => setChoice(null));

  return (
    <Section title={TITLE}>
      <Muted>
        {current
          ? 'New books start with the voice saved here, on every device. You can still pick another for each book.'
          : 'No voice saved yet: new books start with the voice you last chose in this browser.'}
      </Muted>
      <VoicePicker value={shown} onChange={(next) => setChoice(next)} />
      {voiceSave.error && (
        <Alert tone="error">{errorMessage(voiceSave.error, 'The voice could not be saved. Try again.')}</Alert>
      )}
      {voiceSave.saved && <Alert tone="success">{voiceSave.saved}</Alert>}
      <Actions>
        <Button
          disabled={shown === null || voiceSave.pending}
          onClick={() =>
            shown &&
            saveVoice(
              {
                default_voice: {
                  provider: shown.provider,
                  ...(shown.voiceId !== '' && { voice_id: shown.voiceId }),
                },
              },
              'Saved: new books start with this voice.',
            )
          }
        >
          {voiceSave.pending ? 'Saving...' : 'Save as default voice'}
        </Button>
        {current && (
          <Button
            variant="secondary"
            disabled={voiceSave.pending}
            onClick={() =>
              saveVoice({ default_voice: null }, 'Cleared: new books start with the voice you last chose.')
            }
          >
            Forget the default voice
          </Button>
        )}
      </Actions>
      <SpeedChoice>
        <SelectField
          label="Listening speed"
          options={speedOptions}
          value={String(speed)}
          disabled={speedSave.pending}
          aria-describedby={speedHint}
          onChange={(event) => {
            const rate = Number(event.target.value) as (typeof PLAYBACK_RATES)[number];
            speedSave.store({ default_speed: rate }, `Saved: new books play at ${speedLabel(rate)}.`);
          }}
        />
      </SpeedChoice>
      <Muted id={speedHint}>
        Saved as soon as you choose, for every device. A speed you pick in the player stays with that book.
      </Muted>
      {speedSave.error && (
        <Alert tone="error">{errorMessage(speedSave.error, 'The speed could not be saved. Try again.')}</Alert>
      )}
      {speedSave.saved && <Alert tone="success">{speedSave.saved}</Alert>}
    </Section>
  );
}
