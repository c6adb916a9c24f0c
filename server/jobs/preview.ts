/**
 * POST /jobs/preview: what creating a job from the same request would make (its kind, title,
 * chapters, listening time and cost), read and planned by the same rules, without creating anything.
 */
import { DomainError } from '../errors';
import type { StoredDocumentInfo } from '../ingest/document';
import { fetchPage } from '../ingest/fetch-page';
import { isFrontMatterTitle } from '../ingest/front-matter';
import { documentReader } from '../ingest/reader';
import { normaliseText } from '../ingest/text-file';
import { attributeInThread } from '../cast/attribute-in-thread';
import { decideCast, viewOf } from '../cast/service';
import { estimateCosts, estimateSeconds, speakingRate } from './estimate';
import type { JobServiceDeps } from './job-access';
import { chosenChapters, isPageRequest, loadSource, type CreateJobInput } from './job-source';
import { chapterStats, planSourceOffThread } from './plan';

/** The request's text, title and (for an upload) what its format said; a web page is read now. */
async function previewSource(
  deps: JobServiceDeps,
  userId: string,
  input: CreateJobInput,
): Promise<{ text: string; title: string; info: StoredDocumentInfo | null }> {
  const title = input.title.trim() || 'Untitled';
  if (isPageRequest(input)) {
    if (deps.fetch === undefined) throw new DomainError('invalid', 'Web pages cannot be previewed on this server');
    const page = await fetchPage(input.url, {
      allowLoopback: deps.fetch.allowLoopback,
      timeoutMs: deps.fetch.timeoutMs,
    });
    const article = await documentReader().extractArticle(page.body, page.finalUrl, page.contentType);
    const text = normaliseText(article.text);
    return { text, title: article.title.trim() !== '' ? article.title.trim().slice(0, 200) : title, info: null };
  }
  const source = await loadSource(deps, userId, input);
  const info = source.info;
  return { text: source.text, title: info?.title !== undefined ? info.title.slice(0, 200) : title, info };
}

/** What `create` would make of the same request, without creating anything. */
export async function previewJob(deps: JobServiceDeps, userId: string, input: CreateJobInput) {
  const { text, title, info } = await previewSource(deps, userId, input);
  const plan = await planSourceOffThread(text, title, info, input.job_type);
  // Validates the choice the same way create does; the preview itself lists every chapter.
  chosenChapters(plan, { chapter_titles: input.chapter_titles });
  const titles = new Map((input.chapter_titles ?? []).map((o) => [o.index, o.title.replace(/\s+/g, ' ').trim()]));
  const provider = input.voice_config?.provider ?? 'openai';
  const rate = speakingRate(deps.voices ?? {}, provider, input.voice_config?.voice_id);
  const selected = new Set(input.chapters ?? plan.chapters.map((_c, i) => i));
  const chapters = plan.chapters.map((c, index) => {
    const stats = chapterStats(text, c);
    return {
      index,
      title: titles.get(index) || c.title,
      ...stats,
      estimated_seconds: estimateSeconds(stats.characters, rate),
      // A book's front matter is offered unticked (a single text has none).
      front_matter: plan.kind === 'book' && (c.frontMatter === true || isFrontMatterTitle(c.title)),
    };
  });
  // A full cast is found as the job would find it (in a thread of its own), its voices as chosen.
  const cast =
    input.voice_config?.cast === true && deps.catalog !== undefined
      ? viewOf(
          await decideCast(
            { attribute: attributeInThread, catalog: deps.catalog },
            {
              config: {
                voice_config: {
                  provider: input.voice_config.provider,
                  ...(input.voice_config.voice_id !== undefined && { voice_id: input.voice_config.voice_id }),
                  cast: true,
                  ...(input.voice_config.cast_voices !== undefined && { cast_voices: input.voice_config.cast_voices }),
                },
              },
            },
            plan.kind === 'text' ? [text] : plan.chapters.map((c) => text.slice(c.start, c.end)),
          ),
        )
      : null;
  const chosenChars = chapters.filter((c) => selected.has(c.index)).reduce((n, c) => n + c.characters, 0);
  return {
    job_type: plan.kind === 'book' ? ('book_processing' as const) : ('text_to_audio' as const),
    title,
    author: info?.author ?? null,
    has_cover: info?.cover !== undefined,
    chapters,
    total_characters: chosenChars,
    estimated_seconds: estimateSeconds(chosenChars, rate),
    characters_per_second: rate,
    estimated_cost: estimateCosts(deps.voices ?? {}, chosenChars),
    ...(cast !== null && { cast }),
  };
}
