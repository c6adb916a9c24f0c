// `npm run bench -- estimate`: how close the preview's listening-time estimate comes to the real
// narration, per voice, over the sample texts in bench/samples/ (written for this bench).
//
// Each text is spoken exactly as the synthesize step speaks it (sentence chunks of the engine's
// request size); the real duration is the audio's length. The estimate is the one the preview
// answers (server/jobs/estimate.ts). Prints, per voice: characters, real and estimated seconds,
// the error, and the measured characters per second next to the table's figure, so the table can
// be updated from here. Offline voices always; OpenAI and ElevenLabs voices too when
// OPENAI_API_KEY / ELEVENLABS_API_KEY are set. Figures are printed, never asserted.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { estimateSeconds, speakingRate } from '../server/jobs/estimate';
import { splitIntoChunks } from '../server/tts/chunking';
import { offlineVoiceFor } from '../server/tts/espeak';
import { selectEngine, type VoiceSettings } from '../server/tts/select';

const dir = fileURLToPath(new URL('./samples/', import.meta.url));
const samples = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map((f) => ({ name: f, text: readFileSync(dir + f, 'utf8').trim() }));

const keys: VoiceSettings = {
  ...(process.env.OPENAI_API_KEY && { openaiApiKey: process.env.OPENAI_API_KEY }),
  ...(process.env.ELEVENLABS_API_KEY && { elevenlabsApiKey: process.env.ELEVENLABS_API_KEY }),
};

type Case = { label: string; provider: 'openai' | 'elevenlabs'; voice: string; voices: VoiceSettings };
const cases: Case[] = [
  { label: 'offline alloy (en-us+f3)', provider: 'openai', voice: 'alloy', voices: {} },
  { label: 'offline onyx (en-us+m3)', provider: 'openai', voice: 'onyx', voices: {} },
  { label: 'offline rachel (en-gb+f4)', provider: 'elevenlabs', voice: 'rachel', voices: {} },
  { label: 'offline adam (en-gb+m3)', provider: 'elevenlabs', voice: 'adam', voices: {} },
];
if (keys.openaiApiKey) cases.push({ label: 'OpenAI alloy', provider: 'openai', voice: 'alloy', voices: keys });
if (keys.elevenlabsApiKey)
  cases.push({ label: 'ElevenLabs adam', provider: 'elevenlabs', voice: 'adam', voices: keys });

async function spokenSeconds(c: Case, text: string): Promise<number> {
  const { engine, voiceId } = selectEngine(c.voices, c.provider, c.voice);
  let seconds = 0;
  for (const chunk of splitIntoChunks(text, engine.maxCharsPerRequest)) {
    const speech = await engine.synthesize(text.slice(chunk.start, chunk.end), voiceId);
    seconds += speech.samples.length / speech.sampleRate;
  }
  return seconds;
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
console.log(`samples: ${samples.map((s) => `${s.name} (${s.text.length} chars)`).join(', ')}`);
let worst = 0;
for (const c of cases) {
  const rate = speakingRate(c.voices, c.provider, c.voice);
  let chars = 0;
  let real = 0;
  const perText: string[] = [];
  for (const s of samples) {
    const seconds = await spokenSeconds(c, s.text);
    const estimate = estimateSeconds(s.text.length, rate);
    const error = (estimate - seconds) / seconds;
    worst = Math.max(worst, Math.abs(error));
    perText.push(`${s.name} ${pct(error)}`);
    chars += s.text.length;
    real += seconds;
  }
  const estimate = estimateSeconds(chars, rate);
  const voice = c.voices.openaiApiKey || c.voices.elevenlabsApiKey ? c.voice : offlineVoiceFor(c.provider, c.voice);
  console.log(
    `${c.label.padEnd(28)} real ${real.toFixed(1)} s, estimated ${estimate.toFixed(1)} s, error ${pct((estimate - real) / real)}` +
      ` | measured ${(chars / real).toFixed(2)} chars/s, table ${rate} (${voice}) | ${perText.join(', ')}`,
  );
}
console.log(`largest error on one text: ${(worst * 100).toFixed(1)} % (target: within 15 %)`);
