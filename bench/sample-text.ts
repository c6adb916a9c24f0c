/** The plain English prose the conversion benches narrate (any length, cut at a sentence end). */
export const SAMPLE_SENTENCES = [
  'The old lighthouse stood at the edge of the cliff, watching the grey sea roll in.',
  'Every evening the keeper climbed the spiral stairs and lit the great lamp.',
  'Ships far out on the water saw the beam and turned away from the rocks.',
  'In winter the wind howled around the tower and salt crusted the windows.',
  'He wrote in his logbook each night, noting the weather and the passing vessels.',
];

/** About `chars` characters of the sample sentences, ending with a full stop. */
export function sampleText(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i += 1) out += `${SAMPLE_SENTENCES[i % SAMPLE_SENTENCES.length]} `;
  return out.slice(0, chars).replace(/\s+\S*$/, '.');
}
