import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Button } from '../../components/ui';
import type { Recap } from './store';

/** The recap's box, in the info tone: a heading (h2 or h3), its text and its actions in a row. */
export const RecapBox = styled.section`
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.tone.info.border};
  background: ${({ theme }) => theme.tone.info.background};
  color: ${({ theme }) => theme.tone.info.text};
  h2,
  h3 {
    margin: 0 0 ${({ theme }) => theme.space(1)};
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
  p {
    margin: 0 0 ${({ theme }) => theme.space(2)};
  }
  div {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
  }
`;

/** How long the book rested, as said to the reader. */
export function restedFor(minutes: number): string {
  if (minutes < 90) return `${minutes} minutes`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} hours`;
  return `${Math.round(minutes / (24 * 60))} days`;
}

/** The browser's speech synthesis, where it offers one. */
function synthesis(): SpeechSynthesis | null {
  return typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
}

/**
 * "Previously…" on the book page (docs/voice-assistant.md#the-page): after a break the recap of
 * what was heard before the stop, written here; "Hear the recap" reads it aloud with the browser's
 * voice (where it has one) and listening resumes when it ends; "Resume listening" plays on at once.
 */
export function Previously({ recap, onResume }: { recap: Readonly<Recap>; onResume: () => void }) {
  const [speaking, setSpeaking] = useState(false);
  const voice = synthesis();
  // Leaving the page stops the reading.
  useEffect(() => () => synthesis()?.cancel(), []);
  const hear = () => {
    if (voice === null) return;
    const utterance = new SpeechSynthesisUtterance(recap.text);
    utterance.onend = () => {
      setSpeaking(false);
      onResume();
    };
    utterance.onerror = () => setSpeaking(false);
    voice.cancel();
    setSpeaking(true);
    voice.speak(utterance);
  };
  const resume = () => {
    voice?.cancel();
    setSpeaking(false);
    onResume();
  };
  return (
    <RecapBox aria-labelledby="previously">
      <h2 id="previously">Previously…</h2>
      <p>{`You last listened ${restedFor(recap.restedMinutes)} ago. ${recap.text}`}</p>
      <div>
        {voice !== null && (
          <Button onClick={hear} disabled={speaking}>
            {speaking ? 'Reading the recap…' : 'Hear the recap'}
          </Button>
        )}
        <Button variant="secondary" onClick={resume}>
          Resume listening
        </Button>
      </div>
    </RecapBox>
  );
}
