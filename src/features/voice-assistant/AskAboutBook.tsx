import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { ButtonLink } from '../../components/ui';
import { paths } from '../../lib/paths';

/** The key that opens X-ray from the book page (no modifier; not while typing). */
export const ASK_SHORTCUT = 'x';

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * "Ask about this book" on the book page: opens the voice assistant in X-ray mode for this book at
 * the listener's position (docs/voice-assistant.md#the-page). The X key does the same. On the voice
 * page the position then follows the player live.
 */
export function AskAboutBook({ jobId, position }: { jobId: string; position: number }) {
  const [, navigate] = useLocation();
  const latest = useRef(position);
  latest.current = position;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== ASK_SHORTCUT || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey)
        return;
      if (event.defaultPrevented || event.repeat || typingIn(event.target)) return;
      event.preventDefault();
      navigate(paths.voiceAssistant({ mode: 'xray', jobId, position: latest.current }));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [jobId, navigate]);
  return (
    <ButtonLink href={paths.voiceAssistant({ mode: 'xray', jobId, position })} aria-keyshortcuts="X">
      Ask about this book
    </ButtonLink>
  );
}
