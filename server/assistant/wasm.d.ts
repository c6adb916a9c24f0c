// The Echogarden WASM packages ship without type declarations; audio.ts types what it uses.
declare module '@echogarden/fvad-wasm' {
  const createModule: (options?: object) => Promise<unknown>;
  export default createModule;
}
declare module '@echogarden/speex-resampler-wasm' {
  const createModule: (options?: object) => Promise<unknown>;
  export default createModule;
}
