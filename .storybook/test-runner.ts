import { getStoryContext, type TestRunnerConfig } from '@storybook/test-runner';

/** Playwright's own viewport, which every story runs at unless it names a screen. */
const DEFAULT_SCREEN = { width: 1280, height: 720 };

/**
 * Two rules for every story run:
 *
 * - A story that names a screen (`parameters.screen: { width, height }`, e.g. a 390x844 phone) runs
 *   at that viewport, so media queries apply as on the device (the bottom navigation, the book
 *   page's phone layout); the next story gets the default back.
 * - A story shows the state its name says, also after its play function ran: a reviewer who opens
 *   "Empty" must see the empty screen, not the page a link led to. So a story may end on another
 *   page (the route stub's "Navigated to …" heading) only when it is tagged `navigates`, which its
 *   name then says too (EmptyCtaNavigates, PlayOpensTheBook, Success, SignOut…).
 */
const config: TestRunnerConfig = {
  async preVisit(page, context) {
    // The preview may still be starting on a file's first story: its store answers once it has.
    await page.waitForFunction(
      () => Boolean((window as { __STORYBOOK_PREVIEW__?: { storyStore?: unknown } }).__STORYBOOK_PREVIEW__?.storyStore),
      undefined,
      { timeout: 30_000 },
    );
    const story = await getStoryContext(page, context);
    const screen = story.parameters.screen as { width: number; height: number } | undefined;
    await page.setViewportSize(screen ?? DEFAULT_SCREEN);
  },
  async postVisit(page, context) {
    const navigated = await page.locator('#storybook-root h1', { hasText: /^Navigated to / }).count();
    if (navigated === 0) return;
    const story = await getStoryContext(page, context);
    if (!story.tags.includes('navigates')) {
      throw new Error(
        `Story "${context.title} / ${context.name}" ends on another page after its play function. ` +
          'Keep the state its name says, and move the navigation into a story of its own tagged "navigates".',
      );
    }
  },
};

export default config;
