import { QueryClient } from '@tanstack/react-query';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from '../../api/http';
import { handlers } from '../../mocks/handlers';
import { getGetAudioMetadataQueryKey, getGetAudioStreamQueryKey } from '../../api/gen/endpoints/audio';
import { audioMetadataFixture, bookJobId, streamInfoFixture } from '../../mocks/audio';
import { resetPlayer } from './controls';
import { attachMedia } from './media';
import { configurePlayer } from './environment';
import { installPlayerShortcuts, PLAYER_REGION_ATTRIBUTE } from './shortcuts';
import { attachPlayer, state, type MediaElement } from './store';

/** Enough of an <audio> element for play/pause/seek/volume. */
class FakeMedia extends EventTarget {
  currentTime = 0;
  duration = 60;
  volume = 1;
  playbackRate = 1;
  src = '';
  error: MediaError | null = null;
  play = vi.fn(async () => {
    this.dispatchEvent(new Event('play'));
  });
  pause = vi.fn(() => {
    this.dispatchEvent(new Event('pause'));
  });
  load = vi.fn();
  removeAttribute = vi.fn();
}

let media: FakeMedia;
let stop: () => void;

/** A loaded book (three 20 s chapters) at `position`, with the shortcuts listening on window. */
function loaded(position = 25) {
  // Loaded as loadJob leaves it: the answers in the data cache, the store ready at `position`.
  const cache = new QueryClient();
  attachPlayer(cache);
  cache.setQueryData(getGetAudioMetadataQueryKey(bookJobId), audioMetadataFixture());
  cache.setQueryData(getGetAudioStreamQueryKey(bookJobId), streamInfoFixture());
  resetPlayer({ currentJobId: bookJobId, streamFrom: bookJobId, duration: 60, currentPosition: position });
  media = new FakeMedia();
  attachMedia(media as unknown as MediaElement);
}

function press(target: Element, key: string, init: KeyboardEventInit = {}) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

// Pausing saves the place: the requests go to the stories' handlers.
const server = setupServer(...handlers);
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  configureApi({ baseUrl: 'http://localhost', getToken: () => null, onUnauthorized: () => {} });
});
afterAll(() => server.close());

beforeEach(() => {
  configurePlayer({ setInterval: () => 0, clearInterval: () => {} });
  document.body.innerHTML = `
    <main><p id="text">Library</p><input id="search"><textarea id="notes"></textarea>
    <div id="editable" contenteditable="true"></div><button id="button">Other</button>
    <section id="region" ${PLAYER_REGION_ATTRIBUTE} tabindex="0"><span id="inside">Player</span></section></main>
    <div role="alertdialog" aria-label="Delete?"><p id="in-dialog">Sure?</p></div>`;
  stop = installPlayerShortcuts(window);
});
afterEach(() => {
  stop();
  resetPlayer();
  configurePlayer(null);
});

const el = (id: string) => document.getElementById(id) as HTMLElement;

describe('player keyboard shortcuts', () => {
  it('do nothing while no book is loaded', () => {
    resetPlayer();
    const event = press(el('text'), ' ');
    expect(event.defaultPrevented).toBe(false);
    expect(state.isPlaying).toBe(false);
  });

  it('Space and K play and pause from anywhere on the page, and Space does not scroll', () => {
    loaded();
    const event = press(el('text'), ' ');
    expect(event.defaultPrevented).toBe(true);
    expect(state.isPlaying).toBe(true);
    press(document.body, 'k');
    expect(state.isPlaying).toBe(false);
    press(document.body, 'K');
    expect(state.isPlaying).toBe(true);
  });

  it('J/← go back and L/→ forward 10 seconds', () => {
    loaded(25);
    press(document.body, 'j');
    expect(state.currentPosition).toBe(15);
    press(document.body, 'ArrowLeft');
    expect(state.currentPosition).toBe(5);
    press(document.body, 'l');
    press(document.body, 'ArrowRight');
    expect(state.currentPosition).toBe(25);
  });

  it('Shift+N and Shift+P change chapter; N and P alone do nothing', () => {
    loaded(25);
    press(document.body, 'n');
    expect(state.currentPosition).toBe(25);
    press(document.body, 'N', { shiftKey: true });
    expect(state.currentPosition).toBe(40);
    press(document.body, 'P', { shiftKey: true });
    expect(state.currentPosition).toBe(20);
  });

  it('↑/↓ change the volume only inside the player region, so the page still scrolls elsewhere', () => {
    loaded();
    const outside = press(document.body, 'ArrowDown');
    expect(outside.defaultPrevented).toBe(false);
    expect(state.volume).toBe(1);
    press(el('region'), 'ArrowDown');
    press(el('inside'), 'ArrowDown');
    expect(state.volume).toBe(0.8);
    expect(media.volume).toBeCloseTo(0.8);
    press(el('region'), 'ArrowUp');
    expect(state.volume).toBe(0.9);
  });

  it('M mutes and unmutes back to the volume before', () => {
    loaded();
    press(el('region'), 'ArrowDown');
    press(document.body, 'm');
    expect(state.volume).toBe(0);
    press(document.body, 'm');
    expect(state.volume).toBe(0.9);
  });

  it('leave the keys alone while typing, with Ctrl/Alt/Meta, Space on a button, and in a dialog', () => {
    loaded(25);
    for (const id of ['search', 'notes', 'editable']) {
      const event = press(el(id), ' ');
      expect(event.defaultPrevented).toBe(false);
      press(el(id), 'j');
      press(el(id), 'm');
    }
    expect(state).toMatchObject({ isPlaying: false, currentPosition: 25, volume: 1 });
    press(document.body, 'k', { ctrlKey: true });
    press(document.body, 'ArrowLeft', { altKey: true });
    press(document.body, 'l', { metaKey: true });
    expect(state).toMatchObject({ isPlaying: false, currentPosition: 25 });
    // The focused button activates itself with Space; the player does not toggle too.
    expect(press(el('button'), ' ').defaultPrevented).toBe(false);
    expect(state.isPlaying).toBe(false);
    // Nor inside a dialog open over the page.
    press(el('in-dialog'), 'k');
    press(el('in-dialog'), 'l');
    expect(state).toMatchObject({ isPlaying: false, currentPosition: 25 });
  });

  it('stop listening once uninstalled', () => {
    loaded();
    stop();
    press(document.body, ' ');
    expect(state.isPlaying).toBe(false);
    stop = () => {};
  });
});
