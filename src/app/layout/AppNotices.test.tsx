import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppTheme } from '../../styles/AppTheme';
import { setSchemePreference } from '../../styles/colorScheme';
import { themes } from '../../styles/theme';
import AppNotices from './AppNotices';

/** The pair index.html has: each theme's page colour for the system's setting. */
function addThemeColors(): HTMLMetaElement[] {
  return (['light', 'dark'] as const).map((scheme) => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    meta.media = `(prefers-color-scheme: ${scheme})`;
    meta.content = themes[scheme].colors.background;
    document.head.append(meta);
    return meta;
  });
}

afterEach(() => {
  setSchemePreference('system');
  for (const meta of document.head.querySelectorAll('meta[name="theme-color"]')) meta.remove();
});

describe('AppNotices', () => {
  it('gives the browser’s bar the page colour of the theme the reader picked', () => {
    const metas = addThemeColors();
    render(
      <AppTheme>
        <AppNotices />
      </AppTheme>,
    );
    act(() => setSchemePreference('dark'));
    expect(metas.map((meta) => meta.content)).toEqual([themes.dark.colors.background, themes.dark.colors.background]);
    act(() => setSchemePreference('light'));
    expect(metas.map((meta) => meta.content)).toEqual([themes.light.colors.background, themes.light.colors.background]);
  });
});
