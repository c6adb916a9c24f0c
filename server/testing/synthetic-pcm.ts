/**
 * Deterministic speech-like mono PCM for tests and benchmarks: voiced segments (a gliding
 * fundamental with harmonics and a syllable-rate envelope), a little noise, and pauses.
 */
export function speechLikePcm(seconds: number, sampleRate: number, seed = 1): Int16Array {
  const n = Math.round(seconds * sampleRate);
  const out = new Int16Array(n);
  let state = seed >>> 0 || 1;
  const random = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  let phase = 0;
  for (let i = 0; i < n; i += 1) {
    const t = i / sampleRate;
    const sentence = t % 6; // 5 s of speech, 1 s pause
    if (sentence > 5) {
      out[i] = Math.round((random() - 0.5) * 60);
      continue;
    }
    const f0 = 110 + 30 * Math.sin(2 * Math.PI * 0.7 * t + seed) + 15 * Math.sin(2 * Math.PI * 3.1 * t);
    phase += (2 * Math.PI * f0) / sampleRate;
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 4 * t + seed));
    let v = 0;
    for (let h = 1; h <= 8; h += 1) v += Math.sin(phase * h) / h;
    const sample = syllable * 7000 * v + (random() - 0.5) * 800 * (1 - syllable);
    out[i] = Math.max(-32768, Math.min(32767, Math.round(sample)));
  }
  return out;
}
