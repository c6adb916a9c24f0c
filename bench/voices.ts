/**
 * Offline synthesis speed: `npm run bench -- voices`
 * Prints audio-seconds per wall-second for a ~5,000-character English text, one sentence per call
 * (how the pipeline drives the offline engine), plus one call per 1,000-char chunk for comparison.
 */
import { splitIntoChunks } from '../server/tts/chunking';
import { createEspeakEngine, offlineVoiceFor } from '../server/tts/espeak';
import { chooseSpeechPath } from '../server/tts/speech-paths';

const PARAGRAPH =
  'There was no possibility of taking a walk that day. We had been wandering, indeed, in the leafless ' +
  'shrubbery an hour in the morning; but since dinner Mrs. Reed, when there was no company, dined early. ' +
  'The cold winter wind had brought with it clouds so sombre, and a rain so penetrating, that further ' +
  'out-door exercise was now out of the question. I was glad of it: I never liked long walks, especially ' +
  'on chilly afternoons. "What does Bessie say I have done?" I asked. Dreadful to me was the coming home ' +
  'in the raw twilight, with nipped fingers and toes, and a heart saddened by the chidings of Bessie. ';

async function main() {
  let text = '';
  while (text.length < 5000) text += PARAGRAPH;
  text = text.slice(0, text.lastIndexOf('.', 5000) + 1);
  // --native or --portable forces a speech path; without either, the one the server would choose.
  const forced = process.argv.find((a) => a === '--native' || a === '--portable');
  const path = await chooseSpeechPath(forced === '--native' ? 'native' : forced === '--portable' ? 'portable' : 'auto');
  const engine = createEspeakEngine({ path });
  const voice = offlineVoiceFor('openai', 'alloy');
  console.log(`backend: ${engine.backend}, voice ${voice}, text ${text.length} chars`);

  let t = performance.now();
  await engine.synthesize('Warm up.', voice);
  const first = performance.now() - t;
  console.log(
    `first call ${first.toFixed(0)} ms` +
      (engine.backend === 'portable'
        ? ' (starts an eSpeak thread: compiles and instantiates the module)'
        : ' (starts an eSpeak-NG host)'),
  );

  const chunks = splitIntoChunks(text, engine.maxCharsPerRequest);
  const sentences = chunks.flatMap((c) => c.sentences.map((s) => text.slice(s.start, s.end)));

  for (const [label, pieces] of [
    ['per sentence', sentences],
    ['per 1000-char chunk', chunks.map((c) => c.text)],
  ] as const) {
    let audio = 0;
    t = performance.now();
    for (const p of pieces) {
      const s = await engine.synthesize(p, voice);
      audio += s.samples.length / s.sampleRate;
    }
    const wall = (performance.now() - t) / 1000;
    console.log(
      `${label}: ${pieces.length} calls, ${audio.toFixed(1)} s of audio in ${wall.toFixed(2)} s wall ` +
        `= ${(audio / wall).toFixed(1)}x real time (${((wall * 1000) / pieces.length).toFixed(1)} ms/call)`,
    );
  }
  await path.close();
}

await main();
