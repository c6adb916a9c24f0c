/**
 * Offline speaker attribution: `npm run bench -- cast`
 * On the annotated long story (server/testing/cast-stories.ts), then on three shorter ones: the
 * share of the quoted spans given to the right speaker (target at least 90 %) and the number of
 * narration characters given to a character (target 0). Then the time to attribute a book of
 * about 1 MB (the stories repeated in chapters of 25,000 characters): the first run, and the
 * median of five after it, in wall-clock and CPU time. Printed, never asserted.
 */
import { attributeBook } from '../server/cast/attribution';
import { NARRATOR, type SpokenSpan } from '../server/cast/types';
import { CAST_STORIES, LONG_CAST_STORY, MORE_CAST_STORIES, type CastStory } from '../server/testing/cast-stories';

/** Where each annotated quote is in its chapter, found in text order. */
function truth(story: CastStory): { start: number; end: number; speaker: string }[][] {
  return story.lines.map((lines, c) => {
    const text = story.chapters[c] ?? '';
    let from = 0;
    return lines.map(([quote, speaker]) => {
      const start = text.indexOf(quote, from);
      if (start < 0) throw new Error(`"${quote}" is not in chapter ${c + 1} of ${story.name}`);
      from = start + quote.length;
      return { start, end: from, speaker };
    });
  });
}

function accuracy(story: CastStory): void {
  const expected = truth(story);
  const { chapters } = attributeBook(story.chapters.map((text) => ({ text })));
  let right = 0;
  let narration = 0;
  const total = expected.flat().length;
  chapters.forEach((spans: SpokenSpan[], c) => {
    const lines = expected[c] ?? [];
    for (const line of lines) {
      if (spans.some((s) => s.charStart === line.start && s.charEnd === line.end && s.speaker === line.speaker))
        right++;
    }
    // Every character of a span given to a character that no annotated quote covers is narration.
    for (const s of spans) {
      if (s.speaker === NARRATOR) continue;
      for (let i = s.charStart; i < s.charEnd; i++) if (!lines.some((l) => i >= l.start && i < l.end)) narration++;
    }
  });
  console.log(`"${story.name}": ${total} quoted spans`);
  console.log(`  right speaker: ${right} of ${total} (${((100 * right) / total).toFixed(1)} %, target at least 90 %)`);
  console.log(`  narration characters given to a character: ${narration} (target 0)`);
}

function speed(): void {
  const texts = [LONG_CAST_STORY, ...MORE_CAST_STORIES, ...CAST_STORIES].flatMap((s) => s.chapters);
  const chapters: { text: string }[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000;) {
    let text = '';
    while (text.length < 25_000) text += `${texts[i++ % texts.length] ?? ''}\n\n`;
    chapters.push({ text });
    size += text.length;
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  let spans = 0;
  for (let run = 0; run < 6; run++) {
    const started = performance.now();
    const used = process.cpuUsage();
    spans = attributeBook(chapters).chapters.flat().length;
    wall.push(performance.now() - started);
    const { user, system } = process.cpuUsage(used);
    cpu.push((user + system) / 1000);
  }
  const mb = size / 1_000_000;
  const perMb = (ms: number | undefined) => `${((ms ?? 0) / mb).toFixed(0)} ms`;
  const median = (xs: number[]) => [...xs.slice(1)].sort((a, b) => a - b)[2];
  console.log(`book of ${mb.toFixed(2)} MB, ${chapters.length} chapters, ${spans} quoted spans, per MB:`);
  // CPU time too: on a loaded machine the wall clock also counts the other processes' turns.
  console.log(
    `  first run ${perMb(wall[0])} (CPU ${perMb(cpu[0])}), then ${perMb(median(wall))} (CPU ${perMb(median(cpu))}), median of 5`,
  );
}

for (const story of [LONG_CAST_STORY, ...MORE_CAST_STORIES]) accuracy(story);
speed();
