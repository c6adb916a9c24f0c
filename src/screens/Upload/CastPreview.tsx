import styled from 'styled-components';
import { useListVoices } from '../../api/gen/endpoints/voices';
import type { Cast, TtsProvider } from '../../api/gen/model';
import { Alert, Button, ListStack, SelectField } from '../../components/ui';
import { previewKey, useVoicePreview } from '../../features/voices';

const Heading = styled.h3`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.md};
`;

const Row = styled.li`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(10rem, 14rem) auto;
  align-items: end;
  gap: ${({ theme }) => theme.space(3)};
`;

const Who = styled.div`
  display: flex;
  flex-direction: column;
  small {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Note = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const GENDER: Record<Cast['characters'][number]['gender'], string> = {
  female: 'female',
  male: 'male',
  unknown: 'gender not known',
};

/** The voice a character will read in: the one the reader chose, else the one the server chose. */
const voiceOfCharacter = (
  character: Pick<Cast['characters'][number], 'id' | 'voice_id'>,
  chosen: Readonly<Record<string, string>>,
) => chosen[character.id] ?? character.voice_id;

/**
 * The full cast a book would have, in the chapter preview: its characters (the most lines first)
 * with the voices they would read in. Each voice can be changed (the provider's voices) and heard
 * (the voice picker's samples); the choices go to create as `cast_voices`.
 */
export function CastPreview({
  cast,
  provider,
  chosen,
  onChoose,
}: {
  cast: Cast | undefined;
  provider: TtsProvider;
  chosen: Readonly<Record<string, string>>;
  onChoose: (characterId: string, voiceId: string) => void;
}) {
  const list = useListVoices({ query: { staleTime: 60_000, retry: false } });
  const { preview, toggle } = useVoicePreview();
  const voices = (list.data?.voices ?? []).filter((v) => v.provider === provider);
  const nameOf = (id: string) => voices.find((v) => v.id === id)?.name ?? id;

  return (
    <section aria-labelledby="cast-heading">
      <Heading id="cast-heading">Full cast</Heading>
      {cast === undefined ? (
        <Note>The cast appears here once the preview has found who speaks.</Note>
      ) : cast.characters.length === 0 ? (
        <Note>No one speaks in quotes here: the narrator reads everything.</Note>
      ) : (
        <>
          <Note>{`The narrator reads in ${nameOf(cast.narrator.voice_id)}; each character in a voice of their own.`}</Note>
          <ListStack $gap={2} aria-label="Characters">
            {cast.characters.map((character) => {
              const voiceId = voiceOfCharacter(character, chosen);
              const key = previewKey(provider, voiceId);
              const playing = preview.state === 'playing' && preview.key === key;
              const loading = preview.state === 'loading' && preview.key === key;
              const options = voices.some((v) => v.id === voiceId)
                ? voices.map((v) => ({ value: v.id, label: v.name }))
                : [{ value: voiceId, label: voiceId }, ...voices.map((v) => ({ value: v.id, label: v.name }))];
              return (
                <Row key={character.id}>
                  <Who>
                    <strong>{character.name}</strong>
                    <small>
                      {`${GENDER[character.gender]} · ${character.lines} ${character.lines === 1 ? 'line' : 'lines'}`}
                    </small>
                  </Who>
                  <SelectField
                    label={`Voice of ${character.name}`}
                    options={options}
                    value={voiceId}
                    onChange={(event) => onChoose(character.id, event.target.value)}
                  />
                  <Button
                    variant="secondary"
                    aria-pressed={playing}
                    aria-busy={loading || undefined}
                    onClick={() => void toggle(provider, voiceId, `${character.name}'s voice`)}
                  >
                    <span aria-hidden="true">{loading ? '… ' : playing ? '■ ' : '▶ '}</span>
                    Preview<span className="visually-hidden">{` the voice of ${character.name}`}</span>
                  </Button>
                </Row>
              );
            })}
          </ListStack>
          {preview.state === 'failed' && <Alert>{preview.message}</Alert>}
        </>
      )}
    </section>
  );
}
