/** When a text takes place: its years, century or era, and the season and time of day it dwells on. */
import { CENTURY_RE, countWords, DAY_TIMES, HISTORIC, NOT_STATED, SEASONS, YEAR_RE } from './words';

function mostFrequent(words: string[], text: string, min: number): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const w of words) {
    const c = (text.match(new RegExp(String.raw`\b${w}s?\b`, 'gi')) ?? []).length;
    if (c > bestCount) {
      best = w;
      bestCount = c;
    }
  }
  return bestCount >= min ? best : null;
}

export function findTime(scan: string): string {
  const phrases: string[] = [];

  const years = new Map<string, number>();
  for (const m of scan.matchAll(YEAR_RE)) years.set(m[1] ?? '', (years.get(m[1] ?? '') ?? 0) + 1);
  const yearList = [...years.keys()].map(Number).sort((a, b) => a - b);
  const centuries = new Map<string, number>();
  for (const m of scan.matchAll(CENTURY_RE)) {
    const c = (m[1] ?? '').toLowerCase();
    centuries.set(c, (centuries.get(c) ?? 0) + 1);
  }
  let era: string | null = null;
  if (yearList.length > 0) {
    const lo = yearList[0] as number;
    const hi = yearList[yearList.length - 1] as number;
    era = lo === hi ? `in ${lo}` : hi - lo <= 30 ? `between ${lo} and ${hi}` : `from ${lo} to ${hi}`;
  } else if (centuries.size > 0) {
    const top = [...centuries.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    era = `in the ${top} century`;
  } else {
    for (const [re, label] of HISTORIC) {
      if (re.test(scan)) {
        era = `in ${label}`;
        break;
      }
    }
  }
  if (era) phrases.push(era);

  const words = countWords(scan);
  const min = Math.max(2, Math.round(words / 20000));
  const season = mostFrequent(SEASONS, scan, min);
  if (season) phrases.push(`in ${season}`);
  const dayTime = mostFrequent(DAY_TIMES, scan, min);
  if (dayTime) {
    phrases.push(
      dayTime === 'night' || dayTime === 'midnight' || dayTime === 'noon' || dayTime === 'dawn' || dayTime === 'dusk'
        ? `often at ${dayTime}`
        : `often in the ${dayTime}`,
    );
  }
  if (phrases.length === 0) return NOT_STATED;
  const joined = phrases.join(', ');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}
