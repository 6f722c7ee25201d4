/** Downloads an API answer as a file (a plain link could not send the credential). */
import { apiFetch } from './api-client.js';

export async function downloadFrom(path: string, fallbackName: string): Promise<void> {
  const res = await apiFetch(path);
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = decodeURIComponent(name);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
