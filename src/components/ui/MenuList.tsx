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
