import { z } from 'zod';
import * as marketplace from '../../modules/marketplace/index.js';
import { date, duration, table } from '../format.js';
import { MODE_OPTION, mode, name, ORG_AND_MODE, oneOf, org, ref, string } from '../options.js';
import { spec } from '../spec.js';

/** Marketplace listings and their sync jobs. */
export const MARKETPLACE_COMMANDS = [
  spec({
    name: 'listing link',
    summary: 'Link an item to its listing on the related marketplace; quantity changes and deletion will sync to it.',
    synopsis: `--org <id|slug> --item <id|sku> --listing-id <marketplace listing id> [--url <listing url>] ${MODE_OPTION}`,
    example: 'coinventory-server listing link --org liberty-coin --item MOR-1881-S-65 --listing-id mkt-100234',
    options: { org: string, item: string, 'listing-id': string, url: string, mode: string },
    input: z
      .object({
        org,
        item: ref('an item id or SKU'),
        'listing-id': name(200),
        url: z.string().url('must be a URL').optional(),
        mode,
      })
      .transform((v) => ({ org: v.org, mode: v.mode, item: v.item, listingId: v['listing-id'], url: v.url ?? null })),
    run: (sql, input) => marketplace.linkListing(sql, input),
    text: (l) => `Linked ${l.sku} to marketplace listing ${l.marketplaceListingId}.`,
  }),
  spec({
    name: 'listing unlink',
    summary: 'Unlink a listing; the marketplace is not told, and its sync jobs, pending and past, are deleted.',
    synopsis: `--org <id|slug> --listing-id <marketplace listing id> ${MODE_OPTION}`,
    example: 'coinventory-server listing unlink --org liberty-coin --listing-id mkt-100234',
    options: { org: string, 'listing-id': string, mode: string },
    input: z
      .object({ org, 'listing-id': name(200), mode })
      .transform((v) => ({ org: v.org, mode: v.mode, listingId: v['listing-id'] })),
    run: (sql, input) => marketplace.unlinkListing(sql, input),
    text: (l) => `Unlinked marketplace listing ${l.marketplaceListingId}.`,
  }),
  spec({
    name: 'listing list',
    summary: "List an organization's marketplace listings and what was last synced to them.",
    synopsis: `--org <id|slug> ${MODE_OPTION}`,
    example: 'coinventory-server listing list --org liberty-coin',
    ...ORG_AND_MODE,
    run: (sql, input) => marketplace.listListings(sql, input),
    text: (listings) =>
      listings.length === 0
        ? 'No listings.'
        : table([
            ['LISTING', 'ITEM', 'STATUS', 'SYNCED QTY', 'SYNCED AT'],
            ...listings.map((l) => [
              l.marketplaceListingId,
              l.sku ?? '(deleted item)',
              l.status,
              l.lastSyncedQuantity === null ? '—' : String(l.lastSyncedQuantity),
              date(l.lastSyncedAt),
            ]),
          ]),
  }),
  spec({
    name: 'sync list',
    summary: 'List marketplace sync jobs, newest first, with their state, attempts and last error.',
    synopsis: `--org <id|slug> [--state ${oneOf(marketplace.SYNC_STATES)}] [--limit <1-1000>] ${MODE_OPTION}`,
    example: 'coinventory-server sync list --org liberty-coin --state dead',
    options: { org: string, state: string, limit: string, mode: string },
    input: z.object({
      org,
      mode,
      state: z
        .enum(marketplace.SYNC_STATES, {
          errorMap: () => ({ message: `must be one of ${marketplace.SYNC_STATES.join(', ')}` }),
        })
        .optional(),
      limit: z
        .string()
        .regex(/^[0-9]+$/, 'must be a whole number')
        .transform(Number)
        .pipe(z.number().int().min(1, 'must be from 1 to 1000').max(1000, 'must be from 1 to 1000'))
        .optional()
        .transform((value) => value ?? 50),
    }),
    run: (sql, input) => marketplace.listJobs(sql, input),
    text: (jobs) =>
      jobs.length === 0
        ? 'No sync jobs.'
        : table([
            ['JOB', 'LISTING', 'KIND', 'QTY', 'SEQ', 'STATE', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
            ...jobs.map((j) => [
              j.id,
              j.marketplaceListingId,
              j.kind,
              j.quantity === null ? '—' : String(j.quantity),
              String(j.sequence),
              j.state,
              String(j.attempts),
              j.state === 'pending' ? date(j.nextAttemptAt) : '—',
              j.lastError ?? '',
            ]),
          ]),
  }),
  spec({
    name: 'sync status',
    summary:
      "Summarize an organization's sync jobs: how many in each state, the longest wait, and the listings a dead job left stale.",
    synopsis: `--org <id|slug> ${MODE_OPTION}`,
    example: 'coinventory-server sync status --org liberty-coin',
    ...ORG_AND_MODE,
    run: (sql, input) => marketplace.syncStatus(sql, input),
    text: (status) => {
      const { counts, oldestPending: oldest, stale } = status;
      const lines = [
        `Sync jobs in ${status.organization}: ${marketplace.SYNC_STATES.map((state) => `${counts[state]} ${state}`).join(', ')}.`,
        oldest
          ? `Oldest pending: job ${oldest.id} for ${oldest.marketplaceListingId}, waiting ${duration(status.oldestPendingSeconds ?? 0)} (attempt ${oldest.attempts + 1} due ${date(oldest.nextAttemptAt)}).`
          : 'Nothing pending.',
        ...status.marketplaces.map((gate) => {
          const failures = `${gate.consecutiveFailures} failure${gate.consecutiveFailures === 1 ? '' : 's'} in a row`;
          if (gate.circuit === 'open')
            return `Marketplace ${gate.marketplace}: circuit open since ${date(gate.openedAt)} (${failures}); ${gate.paused ? `next probe after ${date(gate.pausedUntil)}` : 'probing'}. Last: ${gate.pauseReason ?? 'failures'}.`;
          if (gate.paused)
            return `Marketplace ${gate.marketplace}: paused until ${date(gate.pausedUntil)} (${gate.pauseReason ?? 'asked to wait'}).`;
          return `Marketplace ${gate.marketplace}: delivering${gate.consecutiveFailures > 0 ? `; ${failures}` : ''}.`;
        }),
      ];
      if (stale.length === 0) return [...lines, 'No stale listings.'].join('\n');
      return [
        ...lines,
        `Stale listings (${stale.length}): their newest job is dead, so the marketplace still shows an older quantity. Fix the cause, then run 'sync retry' for each job.`,
        table([
          ['LISTING', 'JOB', 'KIND', 'QTY', 'DIED AT', 'ATTEMPTS', 'LAST ERROR'],
          ...stale.map((j) => [
            j.marketplaceListingId,
            j.id,
            j.kind,
            j.quantity === null ? '—' : String(j.quantity),
            date(j.completedAt),
            String(j.attempts),
            j.lastError ?? '',
          ]),
        ]),
      ].join('\n');
    },
  }),
  spec({
    name: 'sync retry',
    summary: 'Put a dead sync job back in line with a fresh set of attempts.',
    synopsis: `--org <id|slug> --job <job id> ${MODE_OPTION}`,
    example: 'coinventory-server sync retry --org liberty-coin --job 3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6c',
    options: { org: string, job: string, mode: string },
    input: z.object({
      org,
      mode,
      job: z.string({ required_error: 'is required' }).uuid('must be a job id (a UUID)'),
    }),
    run: (sql, input) => marketplace.retryJob(sql, input),
    text: (job) => `Sync job ${job.id} is pending again; the worker will deliver it shortly.`,
  }),
  spec({
    name: 'listing simulator',
    summary:
      "Show what the local marketplace simulator holds for an organization's listings: test mode's syncs go there, and every sync when no marketplace is configured.",
    synopsis: `--org <id|slug> ${MODE_OPTION}`,
    example: 'coinventory-server listing simulator --org liberty-coin --mode test',
    ...ORG_AND_MODE,
    run: (sql, input) => marketplace.simulatedListings(sql, input),
    text: (listings) =>
      listings.length === 0
        ? 'The simulator has received nothing for these listings.'
        : table([
            ['LISTING', 'STATUS', 'QTY', 'SEQ', 'DELIVERIES', 'LAST DELIVERY'],
            ...listings.map((l) => [
              l.marketplaceListingId,
              l.status,
              l.quantity === null ? '—' : String(l.quantity),
              String(l.sequence),
              String(l.deliveries),
              date(l.lastDeliveredAt),
            ]),
          ]),
  }),
] as const;
