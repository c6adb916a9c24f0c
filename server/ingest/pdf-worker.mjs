// Reads one PDF with Mozilla's PDF.js (pdfjs-dist, legacy build for Node) in its own thread, then
// the thread ends (plain ESM so it starts under node, tsx and vitest alike). A large or hostile
// PDF costs this thread, never the server's event loop. Posts {ok: true, pages, outline, info}
// or {ok: false, reason}; pdf.ts turns that into text, chapters and messages.
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('pdf-worker.mjs must run as a worker thread');

const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');

/** Lines of one page: text items joined left to right, split where PDF.js marks a line end or the baseline moves. */
function pageLines(items) {
  const lines = [];
  let current = null;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const y = Math.round(item.transform[5] * 10) / 10;
    const size = Math.round(Math.hypot(item.transform[2], item.transform[3]) * 10) / 10 || item.height || 0;
    if (current === null || Math.abs(current.y - y) > Math.max(2, size * 0.5)) {
      if (current !== null && current.text.trim() !== '') lines.push(current);
      current = { text: '', y, size };
    }
    current.text += item.str;
    current.size = Math.max(current.size, size);
    if (item.hasEOL) {
      if (current.text.trim() !== '') lines.push(current);
      current = null;
    }
  }
  if (current !== null && current.text.trim() !== '') lines.push(current);
  return lines.map((l) => ({ text: l.text.replace(/\s+/g, ' ').trim(), y: l.y, size: l.size }));
}

async function outlineOf(pdf) {
  const outline = (await pdf.getOutline().catch(() => null)) ?? [];
  // One top-level entry holding the rest (the book's own title) means its children are the chapters.
  const entries = outline.length === 1 && outline[0].items?.length > 1 ? outline[0].items : outline;
  const out = [];
  for (const entry of entries) {
    try {
      const dest = typeof entry.dest === 'string' ? await pdf.getDestination(entry.dest) : entry.dest;
      if (!Array.isArray(dest) || dest[0] == null) continue;
      const page = typeof dest[0] === 'number' ? dest[0] : await pdf.getPageIndex(dest[0]);
      out.push({
        title: String(entry.title ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
        page,
      });
    } catch {
      // An entry pointing nowhere is skipped.
    }
  }
  return out.filter((e) => e.title !== '');
}

try {
  const data = new Uint8Array(workerData.bytes);
  const pdf = await getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    stopAtErrors: true,
  }).promise;
  if (pdf.numPages > workerData.maxPages) {
    parentPort.postMessage({ ok: false, reason: 'too_many_pages', pages: pdf.numPages });
  } else {
    const pages = [];
    for (let i = 1; i <= pdf.numPages; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      pages.push(pageLines(content.items));
      page.cleanup();
    }
    const meta = await pdf.getMetadata().catch(() => null);
    const info = meta?.info ?? {};
    parentPort.postMessage({
      ok: true,
      pages,
      outline: await outlineOf(pdf),
      info: {
        title: typeof info.Title === 'string' ? info.Title : '',
        author: typeof info.Author === 'string' ? info.Author : '',
      },
    });
    await pdf.destroy();
  }
} catch (error) {
  const name = error?.name ?? '';
  parentPort.postMessage({
    ok: false,
    reason: name === 'PasswordException' ? 'password' : 'invalid',
    detail: String(error?.message ?? error),
  });
}
