import { useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import type { JobStep } from '../../api/gen/model';
import { Button, Card, FactList, ProgressBar, StatusBadge } from '../../components/ui';
import { formatDateTime, formatDuration } from '../../entities/time';
import { humanizeStepName } from '../../entities/job';

const Head = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(3)};
  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.xl};
  }
  div {
    display: flex;
    gap: ${({ theme }) => theme.space(2)};
  }
`;

const Steps = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  > li + li {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
`;

const Step = styled.li`
  padding: ${({ theme }) => `${theme.space(3)} 0`};
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(2)};
`;

const Toggle = styled.button`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  width: 100%;
  padding: ${({ theme }) => theme.space(1)} 0;
  font: inherit;
  text-align: left;
  color: ${({ theme }) => theme.colors.text};
  background: none;
  border: none;
  cursor: pointer;
  span:first-child {
    width: 1ch;
    color: ${({ theme }) => theme.colors.textMuted};
  }
  strong {
    flex: 1;
  }
`;

const Details = styled(FactList)`
  margin: 0 0 0 calc(1ch + ${({ theme }) => theme.space(3)});
  /* display: flex would otherwise win over the hidden attribute. */
  &[hidden] {
    display: none;
  }
`;

const StepError = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.danger};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/** The current time, ticking every second while `live` (a running step's elapsed time). */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/**
 * Seconds a step took; for a running step, the server's elapsed time when the steps arrived plus
 * the time since (so it counts live, and a skewed browser clock does not matter).
 */
function stepSeconds(step: JobStep, now: number, receivedAt: number): number | null {
  if (step.status !== 'RUNNING') return step.duration;
  return (step.duration ?? 0) + Math.max(0, now - receivedAt) / 1000;
}

/** Running and failed steps start open: they are the ones a reader looks for. */
function initiallyOpen(steps: readonly JobStep[]): Set<string> {
  return new Set(steps.filter((step) => step.status === 'RUNNING' || step.status === 'FAILED').map((step) => step.id));
}

/**
 * Task Progress (docs/product.md#job-detail): each step's name, status (lower case), and, opened, its start
 * time and duration. A running step always shows its progress bar, a failed one its error.
 */
export function TaskProgress({ steps }: { steps: readonly JobStep[] }) {
  const baseId = useId();
  const ordered = [...steps].sort((a, b) => a.step_order - b.step_order);
  const [open, setOpen] = useState(() => initiallyOpen(ordered));
  const now = useNow(ordered.some((step) => step.status === 'RUNNING'));
  // When these steps arrived: a running step's elapsed time counts on from there.
  const [arrival, setArrival] = useState(() => ({ steps, at: Date.now() }));
  if (arrival.steps !== steps) setArrival({ steps, at: Date.now() });
  const receivedAt = arrival.at;
  const toggle = (id: string) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Card aria-labelledby={`${baseId}-heading`}>
      <Head>
        <h2 id={`${baseId}-heading`}>Task Progress</h2>
        {ordered.length > 0 && (
          <div>
            <Button variant="secondary" onClick={() => setOpen(new Set(ordered.map((step) => step.id)))}>
              Expand All
            </Button>
            <Button variant="secondary" onClick={() => setOpen(new Set())}>
              Collapse All
            </Button>
          </div>
        )}
      </Head>
      {ordered.length === 0 ? (
        <p>No steps yet.</p>
      ) : (
        <Steps aria-label="Steps">
          {ordered.map((step) => {
            const name = humanizeStepName(step.step_name);
            const isOpen = open.has(step.id);
            const detailsId = `${baseId}-${step.id}`;
            return (
              <Step key={step.id}>
                <Toggle aria-expanded={isOpen} aria-controls={detailsId} onClick={() => toggle(step.id)}>
                  <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
                  <strong>{name}</strong>
                  <StatusBadge status={step.status.toLowerCase()} />
                </Toggle>
                {step.status === 'RUNNING' && <ProgressBar value={step.progress} label={`${name} progress`} />}
                {step.status === 'FAILED' && step.error_message && <StepError>{step.error_message}</StepError>}
                <Details id={detailsId} hidden={!isOpen}>
                  <div>
                    <dt>Started</dt>
                    <dd>{formatDateTime(step.started_at)}</dd>
                  </div>
                  <div>
                    <dt>{step.status === 'RUNNING' ? 'Elapsed' : 'Duration'}</dt>
                    <dd>{formatDuration(stepSeconds(step, now, receivedAt))}</dd>
                  </div>
                </Details>
              </Step>
            );
          })}
        </Steps>
      )}
    </Card>
  );
}
