import { buildM3u } from './playlist';

describe('buildM3u', () => {
  it('lists chapters with rounded durations and their URLs', () => {
    const m3u = buildM3u([
      { title: 'Chapter 1', durationSeconds: 61.4, url: '/api/v1/media/b/ch-1.mp3?expires=1&sig=a' },
      { title: 'Chapter 2', durationSeconds: 61.5, url: '/api/v1/media/b/ch-2.mp3?expires=1&sig=b' },
    ]);
    expect(m3u).toBe(
      '#EXTM3U\n#EXTINF:61,Chapter 1\n/api/v1/media/b/ch-1.mp3?expires=1&sig=a\n#EXTINF:62,Chapter 2\n/api/v1/media/b/ch-2.mp3?expires=1&sig=b\n',
    );
  });

  it('keeps every entry on its own lines whatever the title contains', () => {
    const m3u = buildM3u([
      {
        title: 'Part One,\nIn Which\r\nThings, Happen\u2028#EXTINF:1,evil',
        durationSeconds: 10,
        url: 'https://x/a.mp3',
      },
      { title: '  \n ', durationSeconds: Number.NaN, url: 'https://x/b.mp3' },
    ]);
    const lines = m3u.trimEnd().split('\n');
    expect(lines).toEqual([
      '#EXTM3U',
      '#EXTINF:10,Part One - In Which Things - Happen #EXTINF:1 - evil',
      'https://x/a.mp3',
      '#EXTINF:-1,Untitled',
      'https://x/b.mp3',
    ]);
  });

  it('refuses URLs that would break the playlist', () => {
    expect(() => buildM3u([{ title: 'x', durationSeconds: 1, url: 'a\nb' }])).toThrow();
    expect(() => buildM3u([{ title: 'x', durationSeconds: 1, url: '' }])).toThrow();
  });

  it('an empty book is a valid empty playlist', () => {
    expect(buildM3u([])).toBe('#EXTM3U\n');
  });
});
