/**
 * The people of a book and how each form of a name resolves to one of them: the analysis's entity
 * builder merges "Captain Harris" and "Harris"; a title alone or "the captain" is the book's one
 * captain; "the keeper" is whom the book calls so ("Samuel Harper, the keeper"); "Miss Harper" is
 * the one woman named Harper once genders are known; a bare surname shared by a family is its
 * man's; and a speaker the book never names ("the old man") is a person of its own.
 */
import { buildEntities, cleanName } from '../../analysis/characters';
import { NARRATOR, type CastGender } from '../types';
import { NARRATOR_NOUNS, NICKNAMES, PERSON_NOUNS, titleGender } from './lexicon';

export type Person = {
  id: string;
  /** The fullest form of the name. */
  name: string;
  /** Every form of the name the book uses, the name itself included. */
  forms: Set<string>;
  /** The title the book gives the person ("captain" of "Captain Harris"), lower-cased. */
  title: string | null;
  first: string | null;
  last: string | null;
  gender: CastGender;
};

/** "captain-harris": the name lower-cased, with hyphens for what is not a letter or a digit. */
export function personId(name: string): string {
  return name
    .toLowerCase()
    .replace(/\./g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** The lookup form of a name: no full stops, single spaces, lower case. */
function key(name: string): string {
  return name.replace(/\./g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

export class Cast {
  readonly people: Person[] = [];
  /** The narrator, as the one "I", "me" and "my" mention: never a character, but there in a scene. */
  readonly narrator: Person = {
    id: NARRATOR,
    name: NARRATOR,
    forms: new Set(),
    title: null,
    first: null,
    last: null,
    gender: 'unknown',
  };
  private readonly byForm = new Map<string, Person>();
  private readonly byTitle = new Map<string, Person | null>();
  /** "the keeper", "the old man": roles the book gives and speakers it never names. */
  private readonly byRole = new Map<string, Person>();
  /** What each capitalised form resolved to, until the people change. */
  private readonly resolved = new Map<string, Person | null>();

  constructor(names: readonly string[], roles: readonly [string, string][] = []) {
    for (const e of buildEntities([...names], new Set(), new Set(names))) {
      const name = e.first && e.last ? `${e.first} ${e.last}` : e.display;
      const person = this.add(name, e.honorific?.toLowerCase() ?? null, titleGender(e.honorific ?? ''));
      person.first = e.first;
      person.last = e.last;
      for (const v of e.variants) {
        person.forms.add(v);
        if (!this.byForm.has(key(v))) this.byForm.set(key(v), person);
      }
    }
    this.mergeNicknames();
    for (const [name, role] of roles) {
      const person = this.resolveName(name);
      if (person && !this.byRole.has(role)) this.byRole.set(role, person);
    }
  }

  /** "Lizzy" is Elizabeth when the book has one Elizabeth. */
  private mergeNicknames(): void {
    for (const short of [...this.people]) {
      if (short.last !== null || short.title !== null || short.name.includes(' ')) continue;
      const longs = NICKNAMES.get(short.name.toLowerCase()) ?? [];
      const into = this.people.filter(
        (p) => p !== short && longs.includes((p.first ?? (p.last === null ? p.name : '')).toLowerCase()),
      );
      if (into.length === 1) this.merge(short, into[0] as Person);
    }
  }

  /** "his wife": the one person of the other gender who shares the surname ("Mrs. Bennet" of "Mr. Bennet"). */
  spouseOf(person: Person): Person | null {
    if (person.last === null || person.gender === 'unknown') return null;
    const other = person.gender === 'male' ? 'female' : 'male';
    const found = this.people.filter((p) => p !== person && p.last === person.last && p.gender === other);
    return found.length === 1 ? (found[0] as Person) : null;
  }

  private add(name: string, title: string | null, gender: CastGender): Person {
    let id = personId(name);
    if (this.people.some((p) => p.id === id)) id = `${id}-${this.people.length + 1}`;
    const person: Person = { id, name, forms: new Set([name]), title, first: null, last: null, gender };
    this.people.push(person);
    this.byForm.set(key(name), person);
    if (title !== null) this.byTitle.set(title, this.byTitle.has(title) ? null : person);
    return person;
  }

  /** The person a capitalised form names ("Then Marta" is Marta; "Captain" alone is the one captain). */
  resolveName(raw: string): Person | null {
    let found = this.resolved.get(raw);
    if (found === undefined) {
      found = this.lookUp(raw);
      this.resolved.set(raw, found);
    }
    return found;
  }

  private lookUp(raw: string): Person | null {
    const words = cleanName(raw).split(' ').filter(Boolean);
    // "Then Marta" is Marta; so is "Marta Lind" when the book never gives the surname elsewhere.
    for (let i = 0; i < words.length; i++) {
      const found =
        this.byForm.get(key(words.slice(i).join(' '))) ??
        (i > 0 ? this.byForm.get(key(words.slice(0, -i).join(' '))) : undefined);
      if (found) return found;
    }
    if (words.length !== 1) return null;
    const word = key(words[0] ?? '');
    const titled = this.byTitle.get(word);
    if (titled) return titled;
    // A surname several people share ("Harper"): the family's one man, as books use it.
    const family = this.people.filter((p) => p.last !== null && key(p.last) === word);
    const men = family.filter((p) => p.gender === 'male');
    return family.length === 1 ? (family[0] as Person) : men.length === 1 ? (men[0] as Person) : null;
  }

  /**
   * The person "the captain", "the keeper" or "the old man" is: the role's one holder, or a
   * speaker the book never names (a person of its own, whose name is the phrase). Null for "the
   * author" and for a phrase with no person noun.
   */
  resolveNoun(phrase: string): Person | null {
    const cached = this.resolved.get(phrase);
    if (cached !== undefined) return cached;
    const found = this.lookUpNoun(phrase);
    this.resolved.set(phrase, found);
    return found;
  }

  private lookUpNoun(phrase: string): Person | null {
    const words = phrase.trim().toLowerCase().split(/\s+/).slice(1, 4);
    for (const n of [2, 1]) {
      const role = this.byRole.get(`the ${words.slice(0, n).join(' ')}`);
      if (role && words.length >= n) return this.withForm(role, `the ${words.slice(0, n).join(' ')}`);
    }
    const at = words.findIndex((w) => PERSON_NOUNS.has(w) || NARRATOR_NOUNS.has(w));
    const noun = words[at] ?? '';
    if (at < 0 || NARRATOR_NOUNS.has(noun)) return null;
    const titled = this.byTitle.get(noun);
    if (titled) return this.withForm(titled, `the ${noun}`);
    const named = `the ${words.slice(0, at + 1).join(' ')}`;
    const known = this.byRole.get(named);
    if (known) return known;
    const person = this.add(named, null, PERSON_NOUNS.get(noun) ?? 'unknown');
    this.byRole.set(named, person);
    return person;
  }

  private withForm(person: Person, form: string): Person {
    person.forms.add(form);
    return person;
  }

  /**
   * Once genders are known: "Miss Harper" and "Mr. Harper" join the one woman and the one man of
   * that surname with a first name ("Nell Harper", "Samuel Harper"). Each joined person, and whom
   * they joined.
   */
  mergeTitled(): Map<Person, Person> {
    const merged = new Map<Person, Person>();
    for (const titled of [...this.people]) {
      if (titled.first !== null || titled.last === null || titled.gender === 'unknown') continue;
      const same = this.people.filter(
        (p) => p !== titled && p.first !== null && p.last === titled.last && p.gender === titled.gender,
      );
      if (same.length !== 1) continue;
      this.merge(titled, same[0] as Person);
      merged.set(titled, same[0] as Person);
    }
    return merged;
  }

  private merge(from: Person, into: Person): void {
    for (const form of from.forms) into.forms.add(form);
    for (const [k, p] of this.byForm) if (p === from) this.byForm.set(k, into);
    for (const [k, p] of this.byTitle) if (p === from) this.byTitle.set(k, into);
    for (const [k, p] of this.byRole) if (p === from) this.byRole.set(k, into);
    into.title ??= from.title;
    this.people.splice(this.people.indexOf(from), 1);
    this.resolved.clear();
  }
}
