import CircleHelp from 'lucide-react/icons/circle-help';
import styled from 'styled-components';
import type { Cast } from '../../api/gen/model';
import { MenuAnchor, MenuChoice, MenuList, useMenuButton } from '../../components/ui';
import { speakerName, speakerTone, type SpeakerTone } from './speakers';

const Anchor = styled(MenuAnchor)`
  margin: 0 ${({ theme }) => theme.space(1)};
  vertical-align: baseline;
`;

/** The speaker's name after the quote: small, in the speaker's tone (the name, not the colour, says who). */
const Trigger = styled.button<{ $tone: SpeakerTone; $uncertain: boolean }>`
  font: inherit;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  line-height: 1.3;
  display: inline-flex;
  align-items: center;
  gap: 2px;
  padding: 0 ${({ theme }) => theme.space(2)};
  border-radius: ${({ theme }) => theme.radii.sm};
  border: 1px ${({ $uncertain }) => ($uncertain ? 'dashed' : 'solid')}
    ${({ theme, $tone }) => ($tone === 'neutral' ? theme.colors.border : theme.tone[$tone].border)};
  background: ${({ theme, $tone }) => theme.tone[$tone].background};
  color: ${({ theme, $tone }) => theme.tone[$tone].text};
  cursor: pointer;
  &:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
  &:disabled {
    cursor: progress;
  }
`;

const List = styled(MenuList)`
  z-index: 10;
  top: calc(100% + 4px);
  left: 0;
  min-width: 10rem;
`;

const Item = styled(MenuChoice)`
  font-size: ${({ theme }) => theme.fontSizes.md};
  &:hover,
  &:focus {
    background: ${({ theme }) => theme.colors.raised};
  }
`;

interface SpeakerMenuProps {
  /** The trigger's id: a click on the quote itself opens the menu through it. */
  id: string;
  cast: Pick<Cast, 'characters'> | undefined;
  /** Who speaks the quote now: a character's id or `narrator`. */
  speaker: string;
  /** The speaker is a guess: "Not sure who says this". */
  uncertain: boolean;
  /** Whether the trigger is in the tab order (the read-along keeps one sentence's in it). */
  tabbable: boolean;
  disabled: boolean;
  onChoose: (speaker: string) => void;
}

/**
 * Who speaks a quote of the read-along, and the menu to change it ("Spoken by Marta — change"):
 * the cast's characters and "Narrator", the speaker now checked (the app's menu button pattern,
 * useMenuButton).
 */
export function SpeakerMenu({ id, cast, speaker, uncertain, tabbable, disabled, onChoose }: SpeakerMenuProps) {
  const choices = [
    ...(cast?.characters ?? []).map((c) => ({ value: c.id, label: c.name })),
    { value: 'narrator', label: 'Narrator' },
  ];
  const selected = Math.max(
    0,
    choices.findIndex((c) => c.value === speaker),
  );
  const choose = (value: string) => {
    close();
    if (value !== speaker || uncertain) onChoose(value);
  };
  const { open, close, wrapperRef, buttonProps, listProps } = useMenuButton({
    initialIndex: selected,
    onActivate: (index) => {
      const choice = choices[index];
      if (choice) choose(choice.value);
    },
  });
  const name = speakerName(cast, speaker);
  const label = `Spoken by ${name} — change${uncertain ? '. Not sure who says this' : ''}`;

  return (
    <Anchor ref={wrapperRef}>
      <Trigger
        {...buttonProps}
        id={id}
        type="button"
        aria-label={label}
        title={uncertain ? 'Not sure who says this' : `Spoken by ${name}`}
        tabIndex={tabbable ? 0 : -1}
        disabled={disabled}
        $tone={speakerTone(cast, speaker)}
        $uncertain={uncertain}
      >
        {name}
        {uncertain && <CircleHelp size={14} aria-hidden />}
      </Trigger>
      {open && (
        <List {...listProps} aria-label="Who says this">
          {choices.map((choice, index) => (
            <Item
              key={choice.value}
              role="menuitemradio"
              aria-checked={index === selected}
              tabIndex={-1}
              onClick={() => choose(choice.value)}
            >
              {choice.label}
            </Item>
          ))}
        </List>
      )}
    </Anchor>
  );
}
