/** Discussion questions built from the characters, the place and the themes found, then generic ones. */
import { NOT_STATED } from './words';

const GENERIC_QUESTIONS_FICTION = [
  'Which moment in the story surprised you most, and why?',
  'How does the opening prepare you for what follows?',
  'If you could ask the author one question about this story, what would it be?',
];
const GENERIC_QUESTIONS_NONFICTION = [
  'What is the main idea of this text, and how is it supported?',
  'Which passage stood out most to you, and why?',
  'What question would you ask the author if you could?',
];

/** "daughters", "good fortune" read well after "about"; a bare singular noun gets "the theme of". */
function readsAsPlural(theme: string): boolean {
  return theme.includes(' ') || (/s$/.test(theme) && !/(ss|us|is)$/.test(theme));
}

export function buildQuestions(
  type: 'fiction' | 'non-fiction',
  characters: { name: string }[],
  themes: string[],
  place: string,
): string[] {
  const qs: string[] = [];
  const story = type === 'fiction' ? 'story' : 'text';
  const [a, b] = characters;
  const [t1, t2] = themes;
  if (a) {
    qs.push(
      type === 'fiction'
        ? `What does ${a.name} want most, and what stands in the way?`
        : `What role does ${a.name} play in this text, and why does it matter?`,
    );
  }
  if (a && b && type === 'fiction')
    qs.push(`How does the relationship between ${a.name} and ${b.name} change over the course of the story?`);
  if (place !== NOT_STATED) {
    qs.push(
      type === 'fiction'
        ? `How does the setting of ${place} shape what happens?`
        : `Why does ${place} matter to the subject of this text?`,
    );
  }
  if (t1) qs.push(`What does the ${story} suggest about ${readsAsPlural(t1) ? t1 : `the theme of ${t1}`}?`);
  if (t2) qs.push(`Which passage best shows the importance of ${t2}, and why?`);
  const generic = type === 'fiction' ? GENERIC_QUESTIONS_FICTION : GENERIC_QUESTIONS_NONFICTION;
  for (const g of generic) if (qs.length < 3) qs.push(g);
  return qs.slice(0, 5);
}
