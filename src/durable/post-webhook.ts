/** How long a webhook call may take. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * POSTs a submitted run's outcome as JSON to its webhook (http or https). Best effort, one try:
 * the run's record and `GET /api/v1/runs/{id}` stay the source of truth.
 */
export async function postWebhook(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
  });
  await res.body?.cancel();
}
