/** The guides, in reading order: the sidebar, the samples test and the browser test all read this one list. */
export interface GuideLink {
  text: string;
  link: string;
}

export interface GuideSection {
  text: string;
  items: GuideLink[];
}

export const guideSections: GuideSection[] = [
  {
    text: 'Getting started',
    items: [
      { text: 'What Coinventory is', link: '/guide/introduction' },
      { text: 'Quickstart', link: '/guide/quickstart' },
    ],
  },
  {
    text: 'Using the API',
    items: [
      { text: 'Authentication', link: '/guide/authentication' },
      { text: 'Errors', link: '/guide/errors' },
      { text: 'Idempotency keys', link: '/guide/idempotency' },
      { text: 'Rate limits', link: '/guide/rate-limits' },
      { text: 'Pagination', link: '/guide/pagination' },
      { text: 'Keeping your store in sync', link: '/guide/keeping-in-sync' },
      { text: 'Webhooks', link: '/guide/webhooks' },
      { text: 'Selling in several places', link: '/guide/selling-in-several-places' },
      { text: 'Test mode', link: '/guide/test-mode' },
      { text: 'Money, dates and identifiers', link: '/guide/conventions' },
    ],
  },
  {
    text: 'Resources',
    items: [
      { text: 'Items', link: '/guide/items' },
      { text: 'Valuations and comparable sales', link: '/guide/valuations' },
      { text: 'Consignments and invoices', link: '/guide/consignments-and-invoices' },
      { text: 'Marketplace sync', link: '/guide/marketplace-sync' },
    ],
  },
  {
    text: 'Tools',
    items: [
      { text: 'The SDK', link: '/guide/sdk' },
      { text: 'The CLI', link: '/guide/cli' },
    ],
  },
  {
    text: 'Operating the server',
    items: [
      { text: 'Deploying the server', link: '/guide/deploying' },
      { text: 'Running the container image', link: '/guide/container' },
      { text: 'Operator commands', link: '/guide/operator-commands' },
      { text: 'Moving to Coinventory', link: '/guide/moving-to-coinventory' },
      { text: 'How valuations are computed', link: '/guide/valuation-engine' },
    ],
  },
];

/**
 * How the server works in production, beyond the guides: the complete configuration and the design notes of its
 * guarantees. Read by the sidebar and by the samples test (which checks and runs their blocks as the guides').
 */
export const operatingSection: GuideSection = {
  text: 'Operating in depth',
  items: [
    { text: 'Configuration', link: '/operating/configuration' },
    { text: 'Operations', link: '/operating/operations' },
    { text: 'Keys and authentication', link: '/operating/keys' },
    { text: 'Rate limit: design note', link: '/operating/rate-limit' },
    { text: 'Marketplace sync: how it works', link: '/operating/marketplace-sync' },
    { text: 'Webhooks: how they are delivered', link: '/operating/webhooks' },
    { text: "Behaviour beyond the contract's fields", link: '/operating/behaviour' },
  ],
};

/** Working on Coinventory itself: its commands are a developer's (`sh`), not samples, so the samples test skips them. */
export const contributingSection: GuideSection = {
  text: 'Contributing',
  items: [
    { text: 'Contributing', link: '/contributing/' },
    { text: 'Architecture', link: '/contributing/architecture' },
    { text: 'Benchmarks', link: '/contributing/benchmarks' },
  ],
};
