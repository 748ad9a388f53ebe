import type { ValuationList } from '../../types.js';
import { first } from './common.js';
import { item } from './items.js';

export const valuationList: ValuationList = {
  items: [
    {
      id: '180bfa15-90c1-43e9-84bb-623c677049ad',
      itemId: item.id,
      estimateLowInCents: 8400,
      estimateInCents: 8900,
      estimateHighInCents: 11800,
      confidencePercent: 91,
      basis: 'comps',
      priceGuideValueInCents: null,
      meltValueInCents: null,
      summary: '3 comparable sales near MS63 in the last five months, $84 to $118.',
      comps: [
        {
          source: 'auction_archive',
          title: '1921-D Morgan Dollar NGC MS63',
          grade: 'MS63',
          gradingService: 'NGC',
          priceInCents: 8400,
          soldAt: '2026-08-25',
          venue: 'Heritage',
          url: 'https://heritage.example/lots/927081',
        },
        {
          source: 'marketplace_sold_listing',
          title: '1921-D Morgan Dollar NGC MS64',
          grade: 'MS64',
          gradingService: 'NGC',
          priceInCents: 11800,
          soldAt: 'July 2026',
          venue: 'eBay',
          url: null,
        },
        {
          source: 'auction_archive',
          title: '1921-D Morgan Dollar PCGS MS63',
          grade: 'MS63',
          gradingService: 'PCGS',
          priceInCents: 9700,
          soldAt: 'May 2026',
          venue: 'GreatCollections',
          url: null,
        },
      ],
      appliedAt: '2026-09-30T16:39:00.000Z',
      createdAt: '2026-09-29T16:39:00.000Z',
    },
  ],
};

export const valuation = first(valuationList.items);
