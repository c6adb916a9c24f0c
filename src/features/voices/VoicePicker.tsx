import { useEffect, useId } from 'react';
import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import { useListVoices } from '../../api/gen/endpoints/voices';
import { Alert, Button, Spinner } from '../../components/ui';
import {
  groupVoices,
  initialChoice,
  languageLabel,
  rememberedVoice,
  rememberVoice,
  sameVoice,
  type VoiceChoice,
} from './choice';
import { previewKey, useVoicePreview } from './preview';

const Choices = styled.fieldset`
  margin: 0;
  padding: 0;
  border: none;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(4)};
  legend {
    padding: 0;
    margin-bottom: ${({ theme }) => theme.space(2)};
  }
  legend h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
`;

const Group = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(1)};
  h3 {
    margin: 0 0 ${({ theme }) => theme.space(1)};
    font-size: ${({ theme }) => theme.fontSizes.md};
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: ${({ theme }) => theme.space(2)};
`;

const Row = styled.li<{ $chosen: boolean }>`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme, $chosen }) => ($chosen ? theme.colors.primary : theme.colors.border)};
  background: ${({ theme, $chosen }) => ($chosen ? theme.tone.info.background : theme.colors.surface)};
  label {
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space(2)};
    cursor: pointer;
    min-width: 0;
  }
  small {
    display: block;
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const Note = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

export interface VoicePickerProps {
  value: VoiceChoice | null;
  onChange(choice: VoiceChoice): void;
}

/**
 * Choosing a voice by ear: every voice the server can read with now (GET /voices), grouped by
 * source (the voice server, the cloud voices with a key, the offline voice), each with a
 * "Preview {name}" button that plays its sample. The choice is remembered in this browser; until
 * there is one, the server's default voice is chosen. A voice server that does not answer says so
 * in its group.
 */
export function VoicePicker({ value, onChange }: VoicePickerProps) {
  const list = useListVoices({ query: { staleTime: 60_000, retry: false } });
  const { preview, toggle } = useVoicePreview();
  const name = useId();

  // Start from the remembered voice (or the default) once the list is known.
  useEffect(() => {
    if (!list.data) return;
    const start = initialChoice(list.data, value, rememberedVoice());
    if (start && !(value && start.provider === value.provider && start.voiceId === value.voiceId)) onChange(start);
    // Only when the list arrives or changes; onChange is the caller's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data]);

  const choose = (choice: VoiceChoice) => {
    rememberVoice(choice);
    onChange(choice);
  };

  return (
    <Choices>
      <legend>
        <h2>Voice</h2>
      </legend>
      {list.isLoading ? (
        <Spinner label="Loading voices..." />
      ) : list.error || !list.data ? (
        <Alert>{errorMessage(list.error, 'The voices could not be loaded. Reload the page to try again.')}</Alert>
      ) : (
        groupVoices(list.data).map(({ source, voices }) => (
          <Group key={source.provider} aria-labelledby={`${name}-${source.provider}`}>
            <h3 id={`${name}-${source.provider}`}>{source.name}</h3>
            {source.status === 'unreachable' || voices.length === 0 ? (
              <Note>{source.detail ?? `${source.name} offers no voices right now`}</Note>
            ) : (
              <List>
                {voices.map((voice) => {
                  const key = previewKey(voice.provider, voice.id);
                  const chosen = sameVoice(value, voice);
                  // A voice server's names say nothing of their language; the others' do, or speak English.
                  const language = voice.provider === 'openai_compatible' ? languageLabel(voice.language) : '';
                  const playing = preview.state === 'playing' && preview.key === key;
                  const loading = preview.state === 'loading' && preview.key === key;
                  return (
                    <Row key={key} $chosen={chosen}>
                      <label>
                        <input
                          type="radio"
                          name={name}
                          value={key}
                          checked={chosen}
                          onChange={() => choose({ provider: voice.provider, voiceId: voice.id })}
                        />
                        <span>
                          {voice.name}
                          {language && <small>{language}</small>}
                        </span>
                      </label>
                      <Button
                        variant="secondary"
                        aria-pressed={playing}
                        aria-busy={loading || undefined}
                        onClick={() => void toggle(voice.provider, voice.id, voice.name)}
                      >
                        <span aria-hidden="true">{loading ? '… ' : playing ? '■ ' : '▶ '}</span>
                        Preview<span className="visually-hidden">{` ${voice.name}`}</span>
                      </Button>
                    </Row>
                  );
                })}
              </List>
            )}
            {preview.state === 'failed' && voices.some((v) => previewKey(v.provider, v.id) === preview.key) && (
              <Alert>{preview.message}</Alert>
            )}
          </Group>
        ))
      )}
    </Choices>
  );
}
