import type { ReactNode } from 'react';
import { createGlobalStyle, ThemeProvider, type DefaultTheme } from 'styled-components';
import { viewportOf } from './viewports';

/** The self-hosted body face the visual review pins (@fontsource-variable/inter, loaded by the preview). */
export const PINNED_BODY_FONT = "'Inter Variable', sans-serif";

const pinFonts = (theme: DefaultTheme): DefaultTheme => ({
  ...theme,
  fonts: { ...theme.fonts, body: PINNED_BODY_FONT },
});

// Wins over the app's global style (same rule, higher specificity): the page's own text.
const PinnedBody = createGlobalStyle`
  html body { font-family: ${PINNED_BODY_FONT}; }
`;

/**
 * What the toolbar's globals do around every story, beside the theme (StoryShell):
 * - viewport: where the frame is wider than the chosen size (a docs page, or the story's own page
 *   opened in a wide window), the story is drawn in a box of that width, so it never shows wider
 *   than the device it is for. In the canvas, the toolbar resizes the frame itself and media
 *   queries (the phone's bottom navigation) apply as on the device.
 * - fonts 'pinned': the body text in the self-hosted Inter instead of the system's font.
 */
export function ReviewFrame({
  globals,
  docs,
  children,
}: {
  globals: Record<string, unknown>;
  docs: boolean;
  children: ReactNode;
}) {
  const size = viewportOf(globals);
  const boxed = size !== null && (docs || window.innerWidth > size.width);
  const framed = boxed ? (
    <div
      data-viewport={`${size.width}x${size.height}`}
      style={{
        width: size.width,
        maxWidth: '100%',
        minHeight: docs ? undefined : size.height,
        outline: '1px dashed #8886',
      }}
    >
      {children}
    </div>
  ) : (
    children
  );
  if (globals.fonts !== 'pinned') return framed;
  return (
    <ThemeProvider theme={pinFonts}>
      <PinnedBody />
      {framed}
    </ThemeProvider>
  );
}
