import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import type { UploadMode } from '../../features/upload';

export const tabs: { mode: UploadMode; label: string }[] = [
  { mode: 'text', label: 'Text Input' },
  { mode: 'file', label: 'File Upload' },
  { mode: 'url', label: 'URL' },
];

const List = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(1)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Tab = styled.button<{ $selected: boolean }>`
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  background: none;
  border: none;
  border-bottom: 3px solid ${({ theme, $selected }) => ($selected ? theme.colors.primary : 'transparent')};
  color: ${({ theme, $selected }) => ($selected ? theme.colors.primary : theme.colors.textMuted)};
  margin-bottom: -1px;
`;

const Panel = styled.div`
  padding-top: ${({ theme }) => theme.space(4)};
`;

export const tabId = (mode: UploadMode) => `source-tab-${mode}`;
const panelId = (mode: UploadMode) => `source-panel-${mode}`;

/**
 * The content source as an ARIA tablist: arrow keys, Home and End move between the tabs
 * (automatic activation), and only the selected tab is in the Tab order.
 */
export function SourceTabs({
  mode,
  onChange,
  children,
}: {
  mode: UploadMode;
  onChange: (mode: UploadMode) => void;
  children: ReactNode;
}) {
  const refs = useRef(new Map<UploadMode, HTMLButtonElement>());
  const select = (next: UploadMode) => {
    onChange(next);
    refs.current.get(next)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.mode === mode);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (next) select(next.mode);
  };
  return (
    <div>
      <List role="tablist" aria-label="Content source" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <Tab
            key={tab.mode}
            ref={(element) => {
              if (element) refs.current.set(tab.mode, element);
              else refs.current.delete(tab.mode);
            }}
            type="button"
            role="tab"
            id={tabId(tab.mode)}
            aria-selected={tab.mode === mode}
            aria-controls={tab.mode === mode ? panelId(tab.mode) : undefined}
            tabIndex={tab.mode === mode ? 0 : -1}
            $selected={tab.mode === mode}
            onClick={() => select(tab.mode)}
          >
            {tab.label}
          </Tab>
        ))}
      </List>
      <Panel role="tabpanel" id={panelId(mode)} aria-labelledby={tabId(mode)}>
        {children}
      </Panel>
    </div>
  );
}
