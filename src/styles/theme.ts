/**
 * Design tokens, in two themes of the same shape: a warm light one (paper and ink, a rust accent)
 * and a dark one for listening at night. Every text/background pair the components use meets WCAG
 * AA (4.5:1) contrast in both (tests/unit/theme.test.ts measures them; the stories' accessibility
 * pass checks the screens). Components read tokens only, never spell a colour or a size.
 */

/** What does not change between light and dark: type, spacing, shapes. */
const shared = {
  fonts: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    /**
     * The book face, for titles: Literata, a variable serif made for long reading, served from
     * the app's own files (@fontsource-variable/literata, loaded by main.tsx), never a font CDN.
     */
    book: "'Literata Variable', Literata, Georgia, 'Times New Roman', serif",
  },
  /**
   * The type scale: every text size in the app is one of these (tests/unit/theme.test.ts checks
   * that no component spells its own). xs badges and labels under icons; sm secondary text; md
   * body; lg card titles, book titles on covers and reading text; xl section headings; xxl big
   * figures and sign-in titles; title page titles; display the book page's title.
   */
  fontSizes: {
    xs: '0.75rem',
    sm: '0.875rem',
    md: '1rem',
    lg: '1.125rem',
    xl: '1.375rem',
    xxl: '1.625rem',
    title: '2rem',
    display: '2.5rem',
  },
  radii: { sm: '4px', md: '10px', lg: '16px', pill: '999px' },
  space: (n: number) => `${n * 4}px`,
  /** Two columns fold into one below `nav`; at `phone` the bottom navigation takes over. */
  breakpoints: { nav: '768px', phone: '600px' },
  /** Heights of the fixed bars: the phone's bottom navigation, and the mini-player above it. */
  layout: { bottomNav: '64px', miniPlayer: '80px' },
} as const;

export type ColorScheme = 'light' | 'dark';

interface Palette {
  name: ColorScheme;
  colors: {
    background: string;
    surface: string;
    /** A surface set back from the page: shelves, the read-along box, the bottom bar. */
    raised: string;
    text: string;
    textMuted: string;
    border: string;
    primary: string;
    primaryHover: string;
    /** Text on `primary`. */
    primaryText: string;
    focus: string;
    danger: string;
    /** A disabled control's background and its text. */
    disabled: string;
    disabledText: string;
  };
  tone: Record<'success' | 'info' | 'danger' | 'neutral', { background: string; text: string; border: string }>;
  /** The empty-state drawings: a page, its lines and the accent. */
  illustration: { paper: string; line: string; accent: string };
  shadow: string;
  /** Raised surfaces: menus, the mini-player and the bottom navigation. */
  shadowRaised: string;
  /** Behind a modal dialog. */
  backdrop: string;
}

const lightPalette: Palette = {
  name: 'light',
  colors: {
    background: '#faf6f0',
    surface: '#fffdf9',
    raised: '#f3ece3',
    text: '#2b211a',
    textMuted: '#65574b',
    border: '#ddd0c2',
    primary: '#a0411a',
    primaryHover: '#84330f',
    primaryText: '#ffffff',
    focus: '#b0521f',
    danger: '#b3261e',
    disabled: '#e6ddd2',
    disabledText: '#65574b',
  },
  tone: {
    success: { background: '#e4f1e3', text: '#23553a', border: '#a4cfae' },
    info: { background: '#fbe8da', text: '#8a3a12', border: '#f0b894' },
    danger: { background: '#fce4e0', text: '#8f1f16', border: '#f1a397' },
    neutral: { background: '#efe7dd', text: '#4b3f35', border: '#d9cbbb' },
  },
  illustration: { paper: '#fffdf9', line: '#cdbba8', accent: '#d9794a' },
  shadow: '0 1px 3px rgba(60, 40, 20, 0.12)',
  shadowRaised: '0 6px 20px rgba(60, 40, 20, 0.16)',
  backdrop: 'rgba(30, 20, 12, 0.55)',
};

const darkPalette: Palette = {
  name: 'dark',
  colors: {
    background: '#191512',
    surface: '#231e1a',
    raised: '#2c2621',
    text: '#f3ebe2',
    textMuted: '#c2b3a5',
    border: '#453c34',
    primary: '#f2a36f',
    primaryHover: '#f7bd94',
    primaryText: '#2a1406',
    focus: '#f7bd94',
    danger: '#ff9d90',
    disabled: '#3a332d',
    disabledText: '#b0a191',
  },
  tone: {
    success: { background: '#1d3325', text: '#a9dfb7', border: '#3f6c4c' },
    info: { background: '#3b2416', text: '#f8c49e', border: '#7d4a2a' },
    danger: { background: '#3e1c18', text: '#ffb3a7', border: '#80392f' },
    neutral: { background: '#2f2823', text: '#ded1c4', border: '#4d433a' },
  },
  illustration: { paper: '#2c2621', line: '#5e5247', accent: '#f2a36f' },
  shadow: '0 1px 3px rgba(0, 0, 0, 0.5)',
  shadowRaised: '0 6px 24px rgba(0, 0, 0, 0.6)',
  backdrop: 'rgba(0, 0, 0, 0.7)',
};

export const lightTheme = { ...shared, ...lightPalette };
export const darkTheme: Theme = { ...shared, ...darkPalette };

export const themes: Record<ColorScheme, Theme> = { light: lightTheme, dark: darkTheme };

export type Theme = typeof lightTheme;
export type Tone = keyof Theme['tone'];
