import openApiDocument from '@coinventory/contract/openapi';
import { type DefaultTheme, defineConfig } from 'vitepress';
import { CLI_BIN, helpReader } from '../../scripts/help.mjs';
import { cliPageLink } from '../../scripts/reference-pages.mjs';
import { operationLink, operationsByTag, subcommands } from '../../scripts/render.mjs';
import { contributingSection, guideSections, operatingSection } from './guides.js';

/** The reference part of the sidebar: the API by tag (from the OpenAPI document), then the tools. */
const referenceSidebar: DefaultTheme.SidebarItem[] = [
  {
    text: 'API reference',
    link: '/reference/api/',
    items: [
      ...operationsByTag(openApiDocument).map(({ tag, operations }) => ({
        text: tag,
        collapsed: false,
        items: operations.map((operation) => ({
          text: operation.summary,
          link: operationLink(operation.operationId),
        })),
      })),
      { text: 'Schemas', link: '/reference/api/schemas' },
    ],
  },
  {
    text: 'Tool references',
    items: [
      { text: 'SDK reference', link: '/reference/sdk' },
      {
        text: 'CLI reference',
        link: '/reference/cli',
        collapsed: true,
        // A page per command, as the CLI's help lists them (the generator writes the same pages).
        items: subcommands(helpReader(CLI_BIN)([])).map((name) => ({
          text: `coinventory ${name}`,
          link: cliPageLink(name),
        })),
      },
      { text: 'Operator commands reference', link: '/reference/operator' },
    ],
  },
];

export default defineConfig({
  title: 'Coinventory',
  description: 'Inventory, valuations, consignments and invoices for coin dealers, over a typed JSON API.',
  lang: 'en-US',
  cleanUrls: false,
  // A broken link fails the build: every page must be reachable and every link must land.
  ignoreDeadLinks: false,
  lastUpdated: false,
  head: [
    ['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }],
    ['meta', { name: 'theme-color', content: '#8a6d1d' }],
  ],
  markdown: {
    theme: { light: 'github-light', dark: 'github-dark' },
  },
  themeConfig: {
    nav: [
      { text: 'Guides', link: '/guide/introduction', activeMatch: '^/guide/' },
      { text: 'API reference', link: '/reference/api/', activeMatch: '^/reference/api/' },
      { text: 'SDK', link: '/reference/sdk' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'Operators', link: '/reference/operator' },
      { text: 'Operating', link: '/operating/configuration', activeMatch: '^/operating/' },
      { text: 'Contributing', link: '/contributing/', activeMatch: '^/contributing/' },
    ],
    sidebar: [...guideSections, operatingSection, ...referenceSidebar, contributingSection],
    outline: { level: [2, 3] },
    // MiniSearch, indexed at build time: nothing is asked of a search service.
    search: { provider: 'local' },
    footer: { message: `Coinventory API ${openApiDocument.info.version} · OpenAPI ${openApiDocument.openapi}` },
  },
});
