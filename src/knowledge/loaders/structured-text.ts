/**
 * JSON and CSV as text a search can use: one paragraph per row or array item, each field on
 * its own line as `key: value`, so rows are chunked whole and matched by field names and values.
 */
export function rowsToText(rows: unknown[]): string {
  return rows.map(rowText).join('\n\n');
}

function rowText(row: unknown): string {
  if (row && typeof row === 'object' && !Array.isArray(row)) {
    return Object.entries(row as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join('\n');
  }
  return typeof row === 'string' ? row : JSON.stringify(row);
}

/** A JSON file's text: rows for an array, indented JSON for anything else. */
export function jsonText(raw: string): { text: string; rows?: number } {
  const value: unknown = JSON.parse(raw);
  if (Array.isArray(value)) return { text: rowsToText(value), rows: value.length };
  return { text: JSON.stringify(value, null, 2) };
}

/** JSON Lines: one row per line. */
export function jsonLinesText(raw: string): { text: string; rows: number } {
  const rows = raw.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
  return { text: rowsToText(rows), rows: rows.length };
}

/** CSV (RFC 4180: quoted fields, `""` escapes, newlines inside quotes); the first row names the columns. */
export function csvText(raw: string): { text: string; rows: number } {
  const records = parseCsv(raw);
  const [header, ...body] = records;
  if (!header) return { text: '', rows: 0 };
  const rows = body.map((r) => Object.fromEntries(header.map((h, i) => [h || `column${i + 1}`, r[i] ?? ''])));
  return { text: rowsToText(rows), rows: rows.length };
}

function parseCsv(raw: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (quoted) {
      if (ch === '"' && raw[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') record.push(field), (field = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && raw[i + 1] === '\n') i++;
      record.push(field);
      if (record.some((f) => f !== '')) records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  record.push(field);
  if (record.some((f) => f !== '')) records.push(record);
  return records;
}
