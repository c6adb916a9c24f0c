import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { useId, type ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { Link } from 'wouter';
// By path, not the ui index: its icon stays out of every screen that imports the index.
import { ActionMenu, type MenuAction } from '../ui/ActionMenu';
import { BookCover } from './BookCover';

/** The tile's one primary action: its words name the book ("Play The Raven"). */
export interface TileAction {
  kind: 'play' | 'pause' | 'again';
  label: string;
  onClick: () => void;
}

export type TileLayout = 'column' | 'row';

const Tile = styled.li<{ $layout: TileLayout }>`
  list-style: none;
  min-width: 0;
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  ${({ $layout, theme }) =>
    $layout === 'row'
      ? css`
          grid-template-columns: auto minmax(0, 1fr) auto;
          align-items: center;
          gap: ${theme.space(3)};
          padding: ${theme.space(3)};
          background: ${theme.colors.surface};
          border: 1px solid ${theme.colors.border};
          border-radius: ${theme.radii.md};
        `
      : css`
          align-content: start;
        `}
`;

const CoverBox = styled.div`
  position: relative;
  a {
    display: block;
  }
`;

const PlayButton = styled.button<{ $layout: TileLayout }>`
  display: inline-grid;
  place-items: center;
  width: 44px;
  height: 44px;
  padding: 0;
  border-radius: 50%;
  border: 2px solid ${({ theme }) => theme.colors.surface};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.primaryText};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  cursor: pointer;
  ${({ $layout }) =>
    $layout === 'column' &&
    css`
      position: absolute;
      right: 8px;
      bottom: 8px;
    `}
  &:hover {
    background: ${({ theme }) => theme.colors.primaryHover};
  }
`;

const Progress = styled.div`
  height: 4px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.border};
  overflow: hidden;
  div {
    height: 100%;
    background: ${({ theme }) => theme.colors.primary};
  }
`;

const Text = styled.div`
  min-width: 0;
  display: grid;
  gap: 2px;
`;

const TitleRow = styled.div`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space(1)};
  > :first-child {
    flex: 1;
    min-width: 0;
  }
`;

const Title = styled.h2`
  margin: 0;
  font-family: ${({ theme }) => theme.fonts.book};
  font-size: ${({ theme }) => theme.fontSizes.md};
  font-weight: 650;
  line-height: 1.3;
  overflow-wrap: anywhere;
  a {
    color: ${({ theme }) => theme.colors.text};
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
`;

const Small = styled.p<{ $strong?: boolean }>`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  font-weight: ${({ $strong }) => ($strong ? 600 : 400)};
  overflow-wrap: anywhere;
`;

const Actions = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(1)};
`;

const ICONS = { play: Play, pause: Pause, again: RotateCcw } as const;

/**
 * A book as shelves and the library show it: its cover first (a link to the book page), one
 * primary action on it (Play, Pause, Continue, Listen again: `action`), the title in the book face,
 * the author, where the reader is (`status`), a thin progress line once started, and the rarer
 * actions in a "More actions for {title}" menu (`menu`). `layout` 'row' lays it out as a list row.
 */
export function BookTile({
  jobId,
  title,
  author,
  status,
  progress,
  href,
  action,
  menu,
  layout = 'column',
  headingLevel = 2,
  badge,
}: {
  jobId: string;
  title: string;
  author?: string | null;
  status: string;
  /** Percent listened, shown as a line once above 0. */
  progress?: number;
  href: string;
  action?: TileAction;
  menu?: readonly MenuAction[];
  layout?: TileLayout;
  headingLevel?: 2 | 3;
  /** A small mark under the status (the library's "On this device"). */
  badge?: ReactNode;
}) {
  const titleId = useId();
  const Icon = action ? ICONS[action.kind] : null;
  const button = action && Icon && (
    <PlayButton type="button" $layout={layout} aria-label={action.label} title={action.label} onClick={action.onClick}>
      <Icon size={20} aria-hidden fill={action.kind === 'again' ? 'none' : 'currentColor'} />
    </PlayButton>
  );
  const shown = progress !== undefined && progress > 0 && progress < 100;
  return (
    <Tile $layout={layout} aria-labelledby={titleId}>
      <CoverBox>
        {/* The title is the link in the tab order; the cover is the same link for a pointer, named like
            its image so it has a name while the image still loads. */}
        <Link href={href} tabIndex={-1} aria-label={`Cover of ${title}`}>
          <BookCover jobId={jobId} title={title} size={layout === 'row' ? 'thumb' : 'fill'} />
        </Link>
        {layout === 'column' && button}
      </CoverBox>
      <Text>
        {layout === 'column' && shown && (
          <Progress
            role="progressbar"
            aria-label={`Listening progress of ${title}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress)}
          >
            <div style={{ width: `${Math.round(progress)}%` }} />
          </Progress>
        )}
        <TitleRow>
          <Title as={headingLevel === 3 ? 'h3' : 'h2'} id={titleId}>
            <Link href={href}>{title}</Link>
          </Title>
          {layout === 'column' && menu && menu.length > 0 && (
            <ActionMenu label={`More actions for ${title}`} actions={menu} />
          )}
        </TitleRow>
        {author && <Small>{author}</Small>}
        <Small $strong>{status}</Small>
        {badge && <div>{badge}</div>}
      </Text>
      {layout === 'row' && (
        <Actions>
          {button}
          {menu && menu.length > 0 && <ActionMenu label={`More actions for ${title}`} actions={menu} />}
        </Actions>
      )}
    </Tile>
  );
}
