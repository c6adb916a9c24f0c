/**
 * The words attribution reads dialogue with: speech verbs (the analysis's list and more), the
 * pronouns, the nouns a speaker can be called by ("the captain", "the old man") and the gender
 * that titles and nouns give.
 */
import { SPEECH_VERBS } from '../../analysis/words';
import type { CastGender } from '../types';

const MORE_SPEECH_VERBS = [
  'says',
  'asks',
  'replies',
  'answers',
  'whispers',
  'shouts',
  'cries',
  'adds',
  'mutters',
  'calls',
  'continues',
  'murmured',
  'snapped',
  'growled',
  'yelled',
  'screamed',
  'shrieked',
  'began',
  'insisted',
  'repeated',
  'protested',
  'demanded',
  'inquired',
  'enquired',
  'suggested',
  'agreed',
  'warned',
  'admitted',
  'declared',
  'observed',
  'remarked',
  'retorted',
  'breathed',
  'hissed',
  'grumbled',
  'mumbled',
  'stammered',
  'stuttered',
  'told',
  'explained',
  'offered',
  'pleaded',
  'begged',
  'urged',
  'ordered',
  'commanded',
  'interrupted',
  'went on',
  'put in',
  'cut in',
  'wondered',
  'groaned',
  'moaned',
  'gasped',
  'sobbed',
  'roared',
  'bellowed',
  'barked',
  'chuckled',
  'giggled',
  'snorted',
  'scoffed',
  'sneered',
  'conceded',
  'confessed',
  'announced',
  'persisted',
  'responded',
  'corrected',
  'echoed',
  'concluded',
  'mused',
  'noted',
  'objected',
  'called out',
  'shot back',
  'yelped',
  'grunted',
  'panted',
  'faltered',
  'ventured',
  'prompted',
  'reminded',
  'assured',
  'promised',
  'teased',
  'joked',
  'recalled',
];

/** Every speech verb, longest first so that "called out" wins over "called", as a regex alternation. */
export const TAG_VERBS = [...new Set([...SPEECH_VERBS.split('|'), ...MORE_SPEECH_VERBS])]
  .sort((a, b) => b.length - a.length)
  .map((v) => v.replace(/ /g, String.raw`\s+`))
  .join('|');

/** "he said" / "I said": the pronouns a tag names its speaker with, and what each one tells. */
export const SUBJECT_PRONOUNS: ReadonlyMap<string, CastGender | 'first-person' | 'plural'> = new Map([
  ['he', 'male'],
  ['she', 'female'],
  ['they', 'plural'],
  ['i', 'first-person'],
  ['we', 'first-person'],
]);

/** Pronouns that, right after a name, tell that name's gender. */
export const GENDER_PRONOUNS: ReadonlyMap<string, CastGender> = new Map([
  ['he', 'male'],
  ['his', 'male'],
  ['himself', 'male'],
  ['she', 'female'],
  ['her', 'female'],
  ['hers', 'female'],
  ['herself', 'female'],
]);

const MALE_TITLES = 'mr sir lord king prince duke count baron father brother uncle master monsieur herr signor';
const FEMALE_TITLES =
  'mrs miss ms lady madam madame mme mlle queen princess duchess countess aunt mother sister mistress dame';

/** The gender a title gives the name it comes with ("Mrs. Reed", "Lord Henry"). */
export function titleGender(title: string): CastGender {
  const t = title.replace(/\.$/, '').toLowerCase();
  if (MALE_TITLES.split(' ').includes(t)) return 'male';
  if (FEMALE_TITLES.split(' ').includes(t)) return 'female';
  return 'unknown';
}

const MALE_NOUNS =
  'man gentleman boy king prince duke count baron lord father brother uncle husband son butler landlord waiter monk ' +
  'fellow lad sir grandfather priest';
const FEMALE_NOUNS =
  'woman lady girl queen princess duchess countess mother sister aunt wife daughter maid landlady waitress nun ' +
  'housekeeper grandmother widow lass';
const OTHER_NOUNS =
  'captain colonel major general lieutenant sergeant inspector detective doctor professor stranger driver guard ' +
  'soldier officer judge vicar nurse clerk child servant sailor farmer teacher boatman porter constable coachman ' +
  'innkeeper shopkeeper visitor prisoner witch wizard knight gardener lawyer baker butcher miller hunter painter ' +
  'singer preacher minister banker merchant messenger keeper pilot tailor cook mayor sheriff bishop';

/** Nouns a speaker is called by when the book does not name them, and the gender each gives. */
export const PERSON_NOUNS: ReadonlyMap<string, CastGender> = new Map([
  ...MALE_NOUNS.split(' ').map((n): [string, CastGender] => [n, 'male']),
  ...FEMALE_NOUNS.split(' ').map((n): [string, CastGender] => [n, 'female']),
  ...OTHER_NOUNS.split(' ').map((n): [string, CastGender] => [n, 'unknown']),
]);

/** Who writes the book, never a character: "the author", "the narrator". */
export const NARRATOR_NOUNS = new Set(['author', 'narrator', 'writer', 'editor', 'translator']);

/** Capitalised words the analysis's list does not exclude that still name no one. */
export const NOT_SPEAKERS = new Set(
  (
    'everybody somebody anybody nobody everything something anything nothing another others ' +
    'perhaps maybe suddenly finally then later still again once twice meanwhile afterwards ' +
    'after before later outside inside behind above below beside across around ' +
    'yes no okay ok please thanks thank sorry hello goodbye good bad dear lord ' +
    'morning evening night day dawn dusk noon afternoon today tonight tomorrow yesterday'
  ).split(' '),
);

/** Pet names and the names they are short for, so that "Lizzy" is the book's Elizabeth. */
export const NICKNAMES: ReadonlyMap<string, readonly string[]> = new Map(
  (
    'lizzy:elizabeth lizzie:elizabeth liz:elizabeth eliza:elizabeth beth:elizabeth betsy:elizabeth ' +
    'bill:william will:william billy:william willy:william bob:robert rob:robert robbie:robert bobby:robert ' +
    'dick:richard rick:richard jim:james jimmy:james jamie:james tom:thomas tommy:thomas ' +
    'kate:katherine,catherine katie:katherine,catherine kitty:katherine,catherine cathy:catherine ' +
    'meg:margaret maggie:margaret peggy:margaret jack:john johnny:john ned:edward ted:edward,theodore ' +
    'eddie:edward harry:henry hal:henry sam:samuel,samantha nell:eleanor,helen,ellen nelly:eleanor,helen,ellen ' +
    'jenny:jane,jennifer annie:anne,ann,anna sue:susan susie:susan charlie:charles,charlotte chuck:charles ' +
    'fred:frederick freddie:frederick alex:alexander,alexandra sandy:alexander,alexandra tony:anthony ' +
    'mike:michael mick:michael dan:daniel danny:daniel joe:joseph joey:joseph ben:benjamin,benedict ' +
    'nick:nicholas matt:matthew pat:patrick,patricia polly:mary molly:mary mamie:mary fanny:frances ' +
    'fran:frances,francis frank:francis,franklin greg:gregory andy:andrew drew:andrew ' +
    'louie:louis lou:louis,louise abby:abigail becky:rebecca liza:elizabeth dolly:dorothy dot:dorothy'
  )
    .split(' ')
    .map((pair): [string, string[]] => {
      const [short = '', long = ''] = pair.split(':');
      return [short, long.split(',')];
    }),
);
