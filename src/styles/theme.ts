/**
 * Design tokens. Every text/background pair used by the components meets WCAG AA (4.5:1) contrast.
 */
export const theme = {
  colors: {
    background: '#f8fafc',
    surface: '#ffffff',
    text: '#111827',
    textMuted: '#4b5563',
    border: '#d1d5db',
    primary: '#1d4ed8',
    primaryHover: '#1e40af',
    primaryText: '#ffffff',
    focus: '#2563eb',
    danger: '#b91c1c',
    disabled: '#6b7280',
  },
  tone: {
    success: { background: '#dcfce7', text: '#166534', border: '#86efac' },
    info: { background: '#dbeafe', text: '#1e40af', border: '#93c5fd' },
    danger: { background: '#fee2e2', text: '#991b1b', border: '#fca5a5' },
    neutral: { background: '#f3f4f6', text: '#374151', border: '#d1d5db' },
  },
  fonts: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  /**
   * The type scale: every text size in the app is one of these (tests/unit/theme.test.ts checks
   * that no component spells its own). xs badges; sm secondary text; md body; lg card and section
   * titles and reading text; xl section headings; xxl big figures and sign-in titles; title page
   * titles; display the dashboard's counters.
   */
  fontSizes: {
    xs: '0.75rem',
    sm: '0.875rem',
    md: '1rem',
    lg: '1.125rem',
    xl: '1.25rem',
    xxl: '1.5rem',
    title: '1.75rem',
    display: '2rem',
  },
  radii: { sm: '4px', md: '8px', pill: '999px' },
  space: (n: number) => `${n * 4}px`,
  /** The top bar collapses into a menu below this width. */
  breakpoints: { nav: '768px' },
  shadow: '0 1px 3px rgba(15, 23, 42, 0.12)',
  /** Raised surfaces: menus and the mini-player's bar. */
  shadowRaised: '0 6px 20px rgba(15, 23, 42, 0.15)',
  /** Behind a modal dialog. */
  backdrop: 'rgba(15, 23, 42, 0.55)',
} as const;

export type Theme = typeof theme;
export type Tone = keyof Theme['tone'];
