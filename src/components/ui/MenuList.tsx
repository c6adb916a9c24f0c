import styled from 'styled-components';

/** Holds a menu's button and its list, which opens against it. */
export const MenuAnchor = styled.div`
  position: relative;
  display: inline-block;
`;

/**
 * The raised surface of a menu's items (the `listProps` of `useMenuButton`); each menu places it
 * against its button (above or below, left or right) and sets its stacking order.
 */
export const MenuList = styled.ul`
  position: absolute;
  margin: 0;
  padding: ${({ theme }) => theme.space(1)} 0;
  list-style: none;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadowRaised};
  white-space: nowrap;
`;

/**
 * One choice of a menu of choices (role menuitemradio): the chosen one bold with a tick. Each menu
 * sets its hover colour.
 */
export const MenuChoice = styled.li`
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  cursor: pointer;
  color: ${({ theme }) => theme.colors.text};
  &[aria-checked='true'] {
    font-weight: 700;
  }
  &[aria-checked='true']::before {
    content: '✓ ';
  }
  &:focus {
    outline: none;
  }
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -2px;
  }
`;
