// What the browser test measures on a page at the window's width: the page, its tables, its request samples and its
// code blocks, each against the room it has.
import type { Page } from 'playwright-core';

/** What an operation page measures: its own width, each table's, and each request sample's pane and code. */
export interface PageWidths {
  document: number;
  tables: Array<{ heading: string; scrollWidth: number; clientWidth: number }>;
  samples: Array<{
    label: string;
    height: number;
    /** The widest line of its code, the width its code box needs, and the width the box has. */
    lineWidth: number;
    codeScrollWidth: number;
    codeClientWidth: number;
  }>;
}

export async function pageWidths(page: Page): Promise<PageWidths> {
  return {
    document: await page.locator('html').evaluate((html) => html.scrollWidth),
    tables: await page.locator('.vp-doc table').evaluateAll((tables) =>
      tables.map((table) => {
        // The heading the table is under (the tables of named things sit in a div of their own).
        let node = table.closest('.api-fields') ?? table;
        while (node && !/^H[1-4]$/.test(node.tagName)) node = node.previousElementSibling;
        return {
          heading: node?.textContent?.trim() ?? '',
          scrollWidth: table.scrollWidth,
          clientWidth: table.clientWidth,
        };
      }),
    ),
    samples: await page.locator('.request-samples .request-sample').evaluateAll((panes) =>
      panes.map((pane) => {
        // VitePress scrolls a code block in its language-* box or in its pre: neither may need to.
        const box = pane.querySelector('div[class*="language-"]');
        const pre = box?.querySelector('pre');
        return {
          label: pane.querySelector('.request-sample-label')?.textContent?.trim() ?? '',
          height: pane.getBoundingClientRect().height,
          lineWidth: Math.max(
            0,
            ...[...pane.querySelectorAll('code .line')].map((line) => line.getBoundingClientRect().width),
          ),
          codeScrollWidth: Math.max(box?.scrollWidth ?? 0, pre?.scrollWidth ?? 0),
          codeClientWidth: Math.min(box?.clientWidth ?? 0, pre?.clientWidth ?? 0),
        };
      }),
    ),
  };
}

/** Each code block of a page's text: the width its code needs, and the width its box has (VitePress scrolls either). */
export async function codeBoxWidths(
  page: Page,
): Promise<Array<{ heading: string; scrollWidth: number; clientWidth: number }>> {
  return page.locator('.vp-doc div[class*="language-"]').evaluateAll((boxes) =>
    boxes.map((box) => {
      const pre = box.querySelector('pre');
      let node: (typeof boxes)[number] | null = box;
      while (node && !/^H[1-4]$/.test(node.tagName)) node = node.previousElementSibling;
      return {
        heading: node?.textContent?.replace(/[\s\u200b]+/g, ' ').trim() ?? '',
        scrollWidth: Math.max(box.scrollWidth, pre?.scrollWidth ?? 0),
        clientWidth: Math.min(box.clientWidth, pre?.clientWidth ?? box.clientWidth),
      };
    }),
  );
}

/** What a reference page of text and code (the CLI's, the operator's) measures, and what does not fit. */
export interface ReferencePageWidths {
  document: number;
  boxes: number;
  /** The most width a code block needs, and the least one has. */
  widest: number;
  room: number;
  problems: string[];
}

/** A page wider than the window, or a table or code block that scrolls sideways, is a problem. */
export async function referencePageWidths(page: Page, path: string, windowWidth: number): Promise<ReferencePageWidths> {
  const { document, tables } = await pageWidths(page);
  const boxes = await codeBoxWidths(page);
  const problems: string[] = [];
  if (document > windowWidth) problems.push(`${path}: the page is ${document} px wide, wider than the window`);
  for (const box of [...tables, ...boxes].filter((box) => box.scrollWidth > box.clientWidth))
    problems.push(`${path}: a block under "${box.heading}" scrolls (${box.scrollWidth} > ${box.clientWidth} px)`);
  if (boxes.length === 0) problems.push(`${path}: no code block (its usage) at all`);
  return {
    document,
    boxes: boxes.length,
    widest: Math.max(...boxes.map((box) => box.scrollWidth)),
    room: Math.min(...boxes.map((box) => box.clientWidth)),
    problems,
  };
}
