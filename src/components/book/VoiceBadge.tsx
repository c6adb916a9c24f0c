import styled from 'styled-components';
import { voiceLabel } from '../../entities/provider';
import { Badge } from '../ui';

const Requested = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Both = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
`;

/**
 * The voice a book was read with (entities/provider.ts `voiceLabel`): what really spoke, and the
 * voice asked for beside it when the offline one stood in ("Offline voice · requested OpenAI").
 */
export function VoiceBadge({ job, demoMode }: { job: Parameters<typeof voiceLabel>[0]; demoMode: boolean }) {
  const voice = voiceLabel(job, demoMode);
  return (
    <Both>
      <Badge tone={voice.tone}>{voice.label}</Badge>
      {voice.requested && <Requested>{voice.requested}</Requested>}
    </Both>
  );
}
