import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useMenuButton } from './useMenuButton';

/** A menu of plain buttons (as ActionMenu's), or of radio items chosen with Enter (as ChoiceMenu's). */
function Menu({ radio = false, onPick }: { radio?: boolean; onPick: (name: string) => void }) {
  const names = ['One', 'Two', 'Three'];
  const [picked, setPicked] = useState(1);
  const { open, close, wrapperRef, buttonProps, listProps } = useMenuButton({
    initialIndex: radio ? picked : 0,
    ...(radio && {
      onActivate: (index: number) => {
        setPicked(index);
        onPick(names[index]!);
        close();
      },
    }),
  });
  return (
    <div>
      <div ref={wrapperRef}>
        <button {...buttonProps} type="button">
          Menu
        </button>
        {open && (
          <ul {...listProps} aria-label="Menu">
            {names.map((name, index) =>
              radio ? (
                <li key={name} role="menuitemradio" aria-checked={index === picked} tabIndex={-1}>
                  {name}
                </li>
              ) : (
                <li key={name} role="none">
                  <button type="button" role="menuitem" tabIndex={-1} onClick={() => onPick(name)}>
                    {name}
                  </button>
                </li>
              ),
            )}
          </ul>
        )}
      </div>
      <p>Outside</p>
    </div>
  );
}

const key = (name: string) => fireEvent.keyDown(document.activeElement!, { key: name });

describe('useMenuButton', () => {
  it('opens from the keyboard on the first item, moves round with the arrows, Home and End', () => {
    render(<Menu onPick={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    key('ArrowDown');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', screen.getByRole('menu').id);
    expect(document.activeElement).toHaveTextContent('One');
    key('ArrowUp');
    expect(document.activeElement).toHaveTextContent('Three');
    key('ArrowDown');
    expect(document.activeElement).toHaveTextContent('One');
    key('End');
    expect(document.activeElement).toHaveTextContent('Three');
    key('Home');
    expect(document.activeElement).toHaveTextContent('One');
  });

  it('closes on Escape with the focus back on the button, and on Tab or a press outside', () => {
    render(<Menu onPick={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Menu' });
    fireEvent.click(button);
    key('Escape');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    key('Tab');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    fireEvent.pointerDown(screen.getByText('Outside'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('leaves Enter to a button item, and gives it to onActivate for radio items', () => {
    const picks: string[] = [];
    const { unmount } = render(<Menu onPick={(name) => picks.push(name)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const enter = fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(enter).toBe(true); // not prevented: the browser clicks the focused button
    unmount();

    render(<Menu radio onPick={(name) => picks.push(name)} />);
    const button = screen.getByRole('button', { name: 'Menu' });
    fireEvent.click(button);
    expect(document.activeElement).toHaveTextContent('Two'); // the checked one
    key('ArrowDown');
    key(' ');
    expect(picks).toEqual(['Three']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
