import { getStoryContext, type TestRunnerConfig } from '@storybook/test-runner';

/**
 * A story shows the state its name says, also after its play function ran: a reviewer who opens
 * "Empty" must see the empty screen, not the page a link led to. So a story may end on another
 * page (the route stub's "Navigated to …" heading) only when it is tagged `navigates`, which its
 * name then says too (EmptyCtaNavigates, PlayOpensTheBook, Success, SignOut…).
 */
const config: TestRunnerConfig = {
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
