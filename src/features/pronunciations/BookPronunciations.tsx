import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import { getGetJobQueryKey, useReconvertJob } from '../../api/gen/endpoints/jobs';
import { Alert, Button, Card, SectionHeader } from '../../components/ui';
import { PronunciationEditor } from './PronunciationEditor';

const Header = styled(SectionHeader)`
  flex-wrap: wrap;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

const Body = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(3)};
`;

/** The word the reader selected on the page (the first 100 characters, without surrounding punctuation). */
export function selectedWord(selection: string): string {
  return selection
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .slice(0, 100);
}

/** "chapter 2", "chapters 2 and 5", "chapters 1, 3 and 4". */
export function chaptersPhrase(chapters: readonly number[]): string {
  if (chapters.length === 1) return `chapter ${chapters[0]}`;
  return `chapters ${chapters.slice(0, -1).join(', ')} and ${chapters[chapters.length - 1]}`;
}

/**
 * On the book page: "Fix a pronunciation" opens the pronunciation editor with the word selected
 * on the page (in the read-along, say) already in it; "Re-convert changed chapters" reads again
 * only the chapters that contain a word whose pronunciation changed since they were converted.
 */
export function BookPronunciations({ jobId, finished }: { jobId: string; finished: boolean }) {
  const queryClient = useQueryClient();
  const reconvert = useReconvertJob();
  const [editing, setEditing] = useState<{ word: string } | null>(null);
  const [result, setResult] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  // The last text selected on the page: pressing the button may clear the selection first.
  const lastSelection = useRef('');

  useEffect(() => {
    const remember = () => {
      const text = selectedWord(document.getSelection()?.toString() ?? '');
      if (text !== '') lastSelection.current = text;
    };
    document.addEventListener('selectionchange', remember);
    return () => document.removeEventListener('selectionchange', remember);
  }, []);

  const fix = () => {
    const now = selectedWord(document.getSelection()?.toString() ?? '');
    setEditing({ word: now || lastSelection.current });
    lastSelection.current = '';
  };

  const onReconvert = async () => {
    setResult(null);
    try {
      const answer = await reconvert.mutateAsync({ jobId });
      // The book page follows the re-conversion as it follows any conversion.
      await queryClient.invalidateQueries({ queryKey: getGetJobQueryKey(jobId) });
      setResult(
        answer.chapters.length === 0
          ? { tone: 'info', text: 'No chapter contains a changed word: nothing to re-convert.' }
          : { tone: 'info', text: `Re-converting ${chaptersPhrase(answer.chapters)} with your pronunciations.` },
      );
    } catch (error) {
      setResult({ tone: 'error', text: errorMessage(error, 'The book could not be re-converted') });
    }
  };

  return (
    <Card aria-labelledby="pronunciations-heading">
      <Header>
        <h2 id="pronunciations-heading">Pronunciations</h2>
        <Actions>
          <Button variant="secondary" onClick={fix} aria-expanded={editing !== null}>
            Fix a pronunciation
          </Button>
          <Button variant="secondary" onClick={() => void onReconvert()} disabled={!finished || reconvert.isPending}>
            {reconvert.isPending ? 'Looking for changes...' : 'Re-convert changed chapters'}
          </Button>
        </Actions>
      </Header>
      <Body>
        {result && <Alert tone={result.tone}>{result.text}</Alert>}
        {editing && <PronunciationEditor key={editing.word} word={editing.word} />}
      </Body>
    </Card>
  );
}
