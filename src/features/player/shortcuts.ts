import { changeVolume, nextChapter, previousChapter, skip, toggleMute } from './controls';
import { togglePlay } from './media';
import { SKIP_SECONDS, VOLUME_STEP } from './settings';
import { isReady, state } from './store';

/** Marks the player's region: ↑/↓ change the volume only while the focus is inside it. */
export const PLAYER_REGION_ATTRIBUTE = 'data-player-region';

/** The shortcuts as the hint lists them (docs/listening.md#player-controls). */
export const PLAYER_SHORTCUTS: readonly { keys: string; action: string }[] = [
  { keys: 'Space or K', action: 'Play or pause' },
  { keys: 'J or ←', action: 'Back 10 seconds' },
  { keys: 'L or →', action: 'Forward 10 seconds' },
  { keys: 'Shift+P / Shift+N', action: 'Previous / next chapter' },
  { keys: 'M', action: 'Mute or unmute' },
  { keys: '↑ / ↓', action: 'Volume up / down (while the player has the focus)' },
];

const typingTags = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
/** Controls that use Space or the arrows themselves: they keep those keys. */
const ownKeysSelector =
  'button, a[href], summary, [role="button"], [role="slider"], [role="menuitem"], [role="menuitemradio"], [role="option"], [role="radio"], [role="checkbox"], [role="switch"], [role="tab"]';

function isTyping(target: Element): boolean {
  return (
    typingTags.has(target.tagName) ||
    (target as HTMLElement).isContentEditable === true ||
    target.closest('[contenteditable]:not([contenteditable="false"])') !== null
  );
}

/**
 * Handles one keydown for the player; returns true when it was a player shortcut (and prevents
 * the browser's default then). Nothing happens without a loaded book, while typing, inside a
 * dialog, with Ctrl, Alt or Meta, or when the focused control uses the key itself.
 */
export function handlePlayerShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  if (!isReady(state)) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target && isTyping(target)) return false;
  // A dialog open over the page has the keyboard to itself.
  if (target?.closest('dialog, [role="dialog"], [role="alertdialog"]')) return false;
  const onControl = Boolean(target?.closest(ownKeysSelector));
  const inRegion = Boolean(target?.closest(`[${PLAYER_REGION_ATTRIBUTE}]`));
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  let action: (() => void) | null = null;
  if (event.shiftKey) {
    if (key === 'n') action = nextChapter;
    else if (key === 'p') action = previousChapter;
  } else {
    switch (key) {
      case ' ':
        if (!onControl) action = togglePlay;
        break;
      case 'k':
        action = togglePlay;
        break;
      case 'j':
        action = () => skip(-SKIP_SECONDS);
        break;
      case 'l':
        action = () => skip(SKIP_SECONDS);
        break;
      case 'ArrowLeft':
        if (!onControl) action = () => skip(-SKIP_SECONDS);
        break;
      case 'ArrowRight':
        if (!onControl) action = () => skip(SKIP_SECONDS);
        break;
      case 'ArrowUp':
        if (inRegion && !onControl) action = () => changeVolume(VOLUME_STEP);
        break;
      case 'ArrowDown':
        if (inRegion && !onControl) action = () => changeVolume(-VOLUME_STEP);
        break;
      case 'm':
        action = toggleMute;
        break;
    }
  }
  if (!action) return false;
  event.preventDefault();
  action();
  return true;
}

/** Listens for the shortcuts on the whole page (PlayerAudio, once); returns the function that stops. */
export function installPlayerShortcuts(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const listener = (event: Event) => void handlePlayerShortcut(event as KeyboardEvent);
  target.addEventListener('keydown', listener);
  return () => target.removeEventListener('keydown', listener);
}
