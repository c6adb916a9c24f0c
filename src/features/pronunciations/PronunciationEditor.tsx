import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import {
  getGetPronunciationsQueryKey,
  useGetPronunciations,
  usePutPronunciations,
} from '../../api/gen/endpoints/pronunciations';
import type { PronunciationOutput } from '../../api/gen/model';
import { Alert, Button, Spinner, TextField } from '../../components/ui';

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
`;

const Fields = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: ${({ theme }) => theme.space(3)};
`;

const Entries = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(1)};
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space(2)};
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

const sameWord = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The reader's pronunciations (GET/PUT /pronunciations): a word or phrase as the book writes it and
 * how to say it, used by every voice in books converted from now on (or re-converted). Saving a
 * word already listed changes its reading. Starts with `word` in the word field when given (the
 * word the reader selected).
 */
export function PronunciationEditor({ word = '', onSaved }: { word?: string; onSaved?: () => void }) {
  const queryClient = useQueryClient();
  const list = useGetPronunciations({ query: { retry: false } });
  const save = usePutPronunciations();
  const entries = list.data ?? [];
  const [text, setText] = useState(word);
  const [sayAs, setSayAs] = useState(() => entries.find((e) => sameWord(e.text, word))?.say_as ?? '');
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const known = list.data?.find((e) => word !== '' && sameWord(e.text, word))?.say_as;

  // A word already listed starts with its reading, once the list is known.
  useEffect(() => {
    if (known !== undefined) setSayAs((current) => current || known);
  }, [known]);

  const put = async (next: PronunciationOutput[], done: string) => {
    setMessage(null);
    try {
      const saved = await save.mutateAsync({ data: next });
      queryClient.setQueryData(getGetPronunciationsQueryKey(), saved);
      setMessage({ tone: 'success', text: done });
      onSaved?.();
      return true;
    } catch (error) {
      setMessage({ tone: 'error', text: errorMessage(error, 'The pronunciations could not be saved') });
      return false;
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (text.trim() === '' || sayAs.trim() === '') {
      setMessage({ tone: 'error', text: 'Write the word and how to say it' });
      return;
    }
    const entry = { text: text.trim(), say_as: sayAs.trim() };
    const known = entries.some((e) => sameWord(e.text, entry.text));
    const next = known ? entries.map((e) => (sameWord(e.text, entry.text) ? entry : e)) : [...entries, entry];
    if (await put(next, `Saved: "${entry.text}" is read as "${entry.say_as}".`)) {
      setText('');
      setSayAs('');
    }
  };

  const remove = (entry: PronunciationOutput) =>
    void put(
      entries.filter((e) => e !== entry),
      `Removed "${entry.text}".`,
    );

  return (
    <Form onSubmit={(event) => void onSubmit(event)} aria-label="Fix a pronunciation">
      <Fields>
        <TextField label="Word" name="word" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
        <TextField
          label="Say it as"
          name="say_as"
          value={sayAs}
          maxLength={200}
          hint="Spell it the way it sounds, e.g. her-my-oh-nee"
          onChange={(e) => setSayAs(e.target.value)}
        />
      </Fields>
      <Row>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save pronunciation'}
        </Button>
      </Row>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {list.isLoading ? (
        <Spinner label="Loading your pronunciations..." />
      ) : list.error ? (
        <Alert>{errorMessage(list.error, 'Your pronunciations could not be loaded')}</Alert>
      ) : (
        entries.length > 0 && (
          <Entries aria-label="Your pronunciations">
            {entries.map((entry) => (
              <li key={entry.text}>
                <span>{`${entry.text} → ${entry.say_as}`}</span>
                <Button variant="link" onClick={() => remove(entry)} disabled={save.isPending}>
                  {`Remove ${entry.text}`}
                </Button>
              </li>
            ))}
          </Entries>
        )
      )}
    </Form>
  );
}
