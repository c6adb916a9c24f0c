/** The word lists and patterns the tutoring analysis reads a text with, and its small helpers. */

/** What the analysis says when the text does not tell (no time, no place). */
export const NOT_STATED = 'Not stated';

const HONORIFICS = [
  'Mr',
  'Mrs',
  'Miss',
  'Ms',
  'Dr',
  'Sir',
  'Lady',
  'Lord',
  'Madam',
  'Madame',
  'Mme',
  'Mlle',
  'Captain',
  'Colonel',
  'Major',
  'General',
  'Professor',
  'Prof',
  'Aunt',
  'Uncle',
  'Father',
  'Mother',
  'Sister',
  'Brother',
  'King',
  'Queen',
  'Prince',
  'Princess',
  'Duke',
  'Duchess',
  'Count',
  'Countess',
  'Baron',
  'Lieutenant',
  'Sergeant',
  'Inspector',
  'Detective',
  'Rev',
  'Reverend',
  'Saint',
  'St',
];
export const HONORIFIC_SET = new Set(HONORIFICS.map((h) => h.toLowerCase()));
/** The titles written with a full stop ("Mr. Bennet", "Dr. Watson"); the others are words ("Captain Harris"). */
export const ABBREVIATED_HONORIFICS = new Set(['mr', 'mrs', 'ms', 'dr', 'mme', 'mlle', 'prof', 'rev', 'st']);
export const HONORIFIC_RE = new RegExp(
  String.raw`\b(${HONORIFICS.join('|')})\.?\s+((?:[A-Z][\p{Ll}'’-]+)(?:\s+[A-Z][\p{Ll}'’-]+)?)`,
  'gu',
);

export const SPEECH_VERBS =
  'said|asked|replied|cried|answered|whispered|shouted|exclaimed|muttered|returned|continued|added|called|thought|smiled|laughed|sighed|nodded';
export const SPEECH_AFTER_RE = new RegExp(String.raw`\b(?:${SPEECH_VERBS})\s+([A-Z][\p{Ll}'’-]+)`, 'gu');
export const SPEECH_BEFORE_RE = new RegExp(String.raw`\b([A-Z][\p{Ll}'’-]+)\s+(?:${SPEECH_VERBS})\b`, 'gu');

/** Capitalised words that are not names. */
export const NOT_NAMES = new Set(
  (
    'i he she it we you they me him her us them my his its our your their this that these those ' +
    'the a an and but or so yet for nor if then when while as at by in of on to up with from into ' +
    'there here what who whom whose which why how where yes no not oh ah well now thus still ' +
    'all some any each every both either neither one none nobody everyone someone anyone ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may ' +
    'june july august september october november december god heaven chapter part book ' +
    'english french german christian christmas easter mamma papa madam sir mother father'
  ).split(' '),
);

export const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she should ' +
    'so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves'
  ).split(' '),
);

/** Nouns too generic to be a theme. */
export const GENERIC_NOUNS = new Set(
  (
    'one ones first last day days time times way ways thing things something nothing anything everything ' +
    'man men woman women people person part parts side moment kind sort lot bit yes no eyes eye hand hands ' +
    'head face room door word words year years minute minutes hour hours other others mr mrs miss sir lady ' +
    'lord chapter page place deal end case number fact point matter manner course half whole rest ' +
    'morning evening night week month today tomorrow yesterday use example sense account answer ' +
    'voice look mind heart self lot thousand hundred dear percent cent per'
  ).split(' '),
);

export const SEASONS = ['spring', 'summer', 'autumn', 'winter'];
export const DAY_TIMES = ['dawn', 'morning', 'noon', 'afternoon', 'evening', 'dusk', 'night', 'midnight'];
export const HISTORIC: [RegExp, string][] = [
  [/\bmiddle ages\b/gi, 'the Middle Ages'],
  [/\bmedieval\b/gi, 'medieval times'],
  [/\bvictorian\b/gi, 'the Victorian era'],
  [/\bregency\b/gi, 'the Regency era'],
  [/\belizabethan\b/gi, 'the Elizabethan era'],
  [/\brenaissance\b/gi, 'the Renaissance'],
  [/\bancient (?:rome|greece|egypt|times)\b/gi, 'ancient times'],
  [/\bthe (?:great|first world|second world|civil) war\b/gi, 'wartime'],
  [/\bprehistoric\b/gi, 'prehistoric times'],
  [/\bin the future\b/gi, 'the future'],
];
const ORDINAL_WORDS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first';
export const CENTURY_RE = new RegExp(String.raw`\b((?:${ORDINAL_WORDS})|\d{1,2}(?:st|nd|rd|th))[- ]century\b`, 'gi');
export const YEAR_RE =
  /\b(?:in|of|since|during|until|by|year|summer|winter|spring|autumn|about|around|circa|c\.)\s+(1[0-9]{3}|20[0-9]{2})\b/gi;

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function countWords(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}
