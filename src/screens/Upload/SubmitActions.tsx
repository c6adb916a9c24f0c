import { useId } from 'react';
import styled from 'styled-components';
import { Button } from '../../components/ui';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
`;

/** Why Create is not possible yet, beside it (and its description). */
const Reason = styled.p`
  margin: 0 auto 0 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/** What the submit button says: the step under way, or what it will convert. */
export function submitLabel(step: 'idle' | 'uploading' | 'creating', fileUploading: boolean, chapters: number | null) {
  if (step === 'uploading' || fileUploading) return 'Uploading file...';
  if (step === 'creating') return 'Creating...';
  if (chapters !== null) return `Convert ${chapters} ${chapters === 1 ? 'chapter' : 'chapters'}`;
  return 'Create Audiobook';
}

interface SubmitActionsProps {
  label: string;
  /** Why the book cannot be made yet, shown beside the button (null when it can). */
  blocked: string | null;
  submitting: boolean;
  disabled: boolean;
  onCancel: () => void;
}

/** Cancel and the submit button, with the reason it cannot be used yet. */
export function SubmitActions({ label, blocked, submitting, disabled, onCancel }: SubmitActionsProps) {
  const reasonId = useId();
  const reason = blocked && !submitting ? blocked : null;
  return (
    <Actions>
      {reason && <Reason id={reasonId}>{reason}</Reason>}
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={disabled} aria-describedby={reason ? reasonId : undefined}>
        {label}
      </Button>
    </Actions>
  );
}
