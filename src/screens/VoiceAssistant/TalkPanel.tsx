import Mic from 'lucide-react/icons/mic';
import styled from 'styled-components';
import { Alert, Card } from '../../components/ui';
import {
  disconnect,
  NOBODY_HEARS,
  talk,
  talkState,
  useHearing,
  useServiceStatus,
  useVoiceAssistant,
  useVoiceStatus,
  type TalkState,
} from '../../features/voice-assistant';
import type { AssistantMode } from '../../lib/paths';
import type { Tone } from '../../styles/theme';
import { CardTitle, modeNames } from './parts';

/** What the talk button's status line says in each state (docs/voice-assistant.md#the-page). */
export const talkLabel: Record<TalkState, string> = {
  idle: 'Ready',
  connecting: 'Connecting',
  listening: 'Listening',
  typing: 'Microphone off',
  thinking: 'Thinking',
  speaking: 'Speaking',
};

const talkTone: Record<TalkState, Tone> = {
  idle: 'neutral',
  connecting: 'info',
  listening: 'success',
  typing: 'neutral',
  thinking: 'info',
  speaking: 'success',
};

const Panel = styled(Card)`
  /* On a phone the talk button comes first, above the conversation. */
  @media (max-width: ${({ theme }) => theme.breakpoints.nav}) {
    order: -1;
  }
  display: flex;
  flex-direction: column;
  align-items: center;
  text-align: center;
  gap: ${({ theme }) => theme.space(3)};
`;

const TalkButton = styled.button<{ $state: TalkState }>`
  width: 136px;
  height: 136px;
  padding: ${({ theme }) => theme.space(2)};
  border-radius: 50%;
  border: 4px solid
    ${({ theme, $state }) => ($state === 'idle' ? theme.colors.primary : theme.tone[talkTone[$state]].border)};
  background: ${({ theme, $state }) => ($state === 'idle' ? theme.colors.primary : theme.colors.surface)};
  color: ${({ theme, $state }) => ($state === 'idle' ? theme.colors.primaryText : theme.colors.text)};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  display: inline-flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space(1)};
  box-shadow: ${({ theme }) => theme.shadow};
  &:hover:not(:disabled) {
    border-color: ${({ theme }) => theme.colors.primaryHover};
  }
  &:disabled {
    cursor: progress;
    background: ${({ theme }) => theme.tone.info.background};
    color: ${({ theme }) => theme.tone.info.text};
  }
  svg {
    width: 36px;
    height: 36px;
  }
`;

const TalkStatus = styled.p<{ $tone: Tone }>`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: 700;
  color: ${({ theme, $tone }) => theme.tone[$tone].text};
`;

const Small = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  overflow-wrap: anywhere;
`;

const Meters = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** The talk button, the conversation's state beside it, the audio levels and what went wrong. */
export function TalkPanel({ botName }: { botName: string }) {
  const voice = useVoiceAssistant();
  const state = talkState(voice);
  const connected = voice.clientStatus === 'connected';
  const service = useServiceStatus();
  const busy = state === 'connecting' || service === 'starting';
  const sessionMode: AssistantMode | null = useVoiceStatus()?.mode ?? null;
  const hearing = useHearing();
  return (
    <Panel aria-labelledby="va-talk">
      <CardTitle id="va-talk">Talk</CardTitle>
      <TalkButton
        type="button"
        $state={state}
        disabled={busy}
        aria-describedby="va-talk-state"
        onClick={() => void (connected ? disconnect() : talk())}
      >
        <Mic aria-hidden="true" />
        {busy ? 'Connecting…' : connected ? 'End conversation' : 'Start talking'}
      </TalkButton>
      <TalkStatus id="va-talk-state" role="status" $tone={talkTone[state]}>
        {talkLabel[state]}
      </TalkStatus>
      {connected && (
        <Small>{sessionMode ? `Talking in ${modeNames[sessionMode]} mode` : 'Talking about your library'}</Small>
      )}
      {hearing === 'browser' && (
        <Small>Your browser’s speech service hears you and turns what you say into text for the assistant.</Small>
      )}
      {hearing === 'none' && !connected && <Small>{`${NOBODY_HEARS} Type your questions below.`}</Small>}
      {voice.micProblem && connected && <Small>{`${voice.micProblem} You can still type your questions.`}</Small>}
      {connected && (
        <Meters>
          <label>
            You <meter aria-label="Your microphone level" min={0} max={1} value={voice.levels.local} />
          </label>
          <label>
            {botName} <meter aria-label="Assistant audio level" min={0} max={1} value={voice.levels.remote} />
          </label>
        </Meters>
      )}
      {voice.reconnecting && <Small>Reconnecting…</Small>}
      {voice.error && <Alert>{voice.error}</Alert>}
    </Panel>
  );
}
