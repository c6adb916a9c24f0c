import styled from 'styled-components';
import type { StorageUse } from '../../api/gen/model';
import { Alert, Card } from '../../components/ui';
import { storageFigures, type StorageLevel } from './storage';

const Title = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space(3)};
  font-size: ${({ theme }) => theme.fontSizes.xl};
`;

const Summary = styled.p`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
  margin: 0 0 ${({ theme }) => theme.space(2)};
  strong {
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }
  span {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Track = styled.div`
  height: 12px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.tone.neutral.background};
  border: 1px solid ${({ theme }) => theme.colors.border};
  overflow: hidden;
`;

const Fill = styled.div<{ $warn: boolean }>`
  height: 100%;
  background: ${({ theme, $warn }) => ($warn ? theme.colors.danger : theme.colors.primary)};
`;

const Note = styled.p`
  margin: ${({ theme }) => `${theme.space(3)} 0 0`};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const HintBox = styled.div`
  margin-top: ${({ theme }) => theme.space(3)};
`;

const HINTS: Record<Exclude<StorageLevel, 'plenty'>, string> = {
  nearlyFull: 'Your storage is nearly full. A new book may not fit: delete books you no longer need to make room.',
  full: 'Your storage is full. New books cannot be added until you delete books you no longer need.',
};

/**
 * The account page's first section: how much of the reader's storage their books, uploads and
 * downloads take, as words and as a meter, with a hint when it is nearly full.
 */
export function StorageSection({ storage }: { storage: StorageUse }) {
  const figures = storageFigures(storage.used_bytes, storage.quota_bytes);
  const warn = figures.level !== 'plenty';
  return (
    <Card aria-labelledby="storage-heading">
      <Title id="storage-heading">Storage</Title>
      <Summary>
        <strong>{figures.summary}</strong>
        <span>{figures.left}</span>
      </Summary>
      <Track
        role="meter"
        aria-label="Storage used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={figures.percent}
        aria-valuetext={`${figures.summary} (${figures.percent}%)`}
      >
        <Fill $warn={warn} style={{ width: `${figures.percent}%` }} />
      </Track>
      {figures.level !== 'plenty' && (
        <HintBox>
          <Alert tone={figures.level === 'full' ? 'error' : 'info'}>{HINTS[figures.level]}</Alert>
        </HintBox>
      )}
      <Note>
        Your books (their text, audio and covers), the files you upload and your downloads all count. When space runs
        short, older downloads make way for new ones and are prepared again when you ask for them.
      </Note>
    </Card>
  );
}
