// Vite plugin: styled-components without the CSS vendor-prefix table it never uses here.
// styled-components 6 adds vendor prefixes (-webkit-, -ms-) only when a StyleSheetManager asks for
// them (`enableVendorPrefixes`); the app never does: the browsers it supports read the standard
// properties. Yet it imports stylis whole, and stylis' `prefixer` (a table of every prefixed
// property, about 1.6 KB gzip) stays in the first load. Here styled-components gets stylis as it
// is, except for a `prefixer` that says what to change if anyone ever turns prefixes on.
const STAND_IN = '\0lectio-stylis-without-prefixer';

export function noVendorPrefixes() {
  let stylis = null;
  return {
    name: 'lectio-no-vendor-prefixes',
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
