// Vite plugin (production builds): styled-components without the CSS vendor-prefix table it never
// uses here. styled-components 6 adds vendor prefixes (-webkit-, -ms-) only when a
// StyleSheetManager asks for them (`enableVendorPrefixes`); by default it does not, and the app
// never asks (where a prefix matters, the CSS spells it out). Yet it imports stylis whole, and
// stylis' `prefixer` (a table of every prefixed property, about 1.6 KB gzip) stays in the first
// load. Here styled-components gets stylis as it is, except for a `prefixer` that says what to
// change if anyone ever turns prefixes on. The CSS the app produces is the same.
const STAND_IN = '\0lectio-stylis-without-prefixer';

export function noVendorPrefixes() {
  let stylis = null;
  return {
    name: 'lectio-no-vendor-prefixes',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== 'stylis' || !importer || !/[\\/]styled-components[\\/]/.test(importer)) return null;
      const real = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!real) return null;
      stylis = real.id;
      return STAND_IN;
    },
    load(id) {
      if (id !== STAND_IN) return null;
      return [
        `export * from ${JSON.stringify(stylis)};`,
        'export function prefixer() {',
        "  throw new Error('Vendor prefixes are left out of this build: remove noVendorPrefixes() from vite.config.ts to use enableVendorPrefixes');",
        '}',
      ].join('\n');
    },
  };
}
