import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * A cluster's metrics (WEB_CONCURRENCY > 1): the worker a scrape reaches asks the primary, which collects every
 * worker's registry over IPC (prom-client's AggregatorRegistry) and answers with the aggregate.
 */
const REQUEST = 'coinventory:metrics-request';
const ANSWER = 'coinventory:metrics-answer';
/** Longer than prom-client's own 5 s wait for the workers, so its error, not ours, says what failed. */
const ANSWER_TIMEOUT_MS = 10_000;

interface MetricsAnswer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

export const inClusterWorker = () => cluster.isWorker;

/** In a worker: lets the primary collect this process's registry. */
export function shareWithPrimary(registry: Registry): void {
  // The constructor installs prom-client's worker-side listener.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/** In the primary: answers workers' requests for the cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== REQUEST || typeof message.id !== 'string') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text } satisfies MetricsAnswer),
      (error: unknown) =>
        worker.send({ type: ANSWER, id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** In a worker: the whole cluster's metrics, from the primary. */
export function clusterMetrics(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('the cluster primary did not answer with the metrics in time'));
    }, ANSWER_TIMEOUT_MS);
    const onMessage = (message: Partial<MetricsAnswer>) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(`cluster metrics: ${message.error ?? 'no answer'}`));
    };
    process.on('message', onMessage);
    process.send?.({ type: REQUEST, id });
  });
}
