/**
 * The sizes a reviewer (and the visual review, scripts/test-visual.mjs) looks at a story in: the
 * toolbar's viewport menu offers these. A story that only makes sense on one size names it with
 * `globals: { viewport: { value: 'phone' } }`, which also locks the menu on that story.
 */
export const VIEWPORTS = {
  phone: { name: 'Phone 390×844', styles: { width: '390px', height: '844px' }, type: 'mobile' },
  tablet: { name: 'Tablet 834×1112', styles: { width: '834px', height: '1112px' }, type: 'tablet' },
  desktop: { name: 'Desktop 1280×800', styles: { width: '1280px', height: '800px' }, type: 'desktop' },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

/** The story's chosen size in pixels, or null when it fills whatever frame it is given. */
export function viewportSize(value: unknown): { width: number; height: number } | null {
  if (typeof value !== 'string' || !(value in VIEWPORTS)) return null;
  const { styles } = VIEWPORTS[value as ViewportName];
  return { width: parseInt(styles.width, 10), height: parseInt(styles.height, 10) };
}

/** The `viewport` global as Storybook keeps it: { value, isRotated }. */
export function viewportOf(globals: Record<string, unknown>): { width: number; height: number } | null {
  const global = globals.viewport as { value?: unknown } | string | undefined;
  return viewportSize(typeof global === 'object' && global ? global.value : global);
}
