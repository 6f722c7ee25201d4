// Figures and the Markdown table of bench/knowledge-peers.mjs, from the raw per-query results of each system.

const MODES = [
  ['keyword', 'keyword'],
  ['vector', 'vector, default search'],
  ['hybrid', 'hybrid, default search'],
  ['vectorIvfPq', 'vector, IVF_PQ index'],
  ['hybridIvfPq', 'hybrid, IVF_PQ index'],
];
const VECTOR_MODES = ['vector', 'vectorIvfPq'];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const share = (ids, reference) => {
  const set = new Set(reference);
  return ids.filter((id) => set.has(id)).length / Math.max(1, reference.length);
};
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** Per system: ingest rate, index times, RSS, latency per mode, recall@10 and overlap with Corvid. */
function summarise(report) {
  const corvid = report.systems.corvid;
  const corvidIds = (mode) => new Map((corvid?.results[mode] ?? []).map((r) => [r.i, r.ids]));
  const out = {};
  for (const [name, s] of Object.entries(report.systems)) {
    const modes = {};
    for (const [mode, list] of Object.entries(s.results)) {
      const ms = list.map((r) => r.ms);
      const m = { p50: round(pct(ms, 50)), p99: round(pct(ms, 99)), queries: list.length };
      if (VECTOR_MODES.includes(mode)) m.recallAt10 = round(mean(list.map((r) => share(r.ids, report.truth[r.i]))), 3);
      const reference = corvidIds(mode.replace('IvfPq', ''));
      const paired = list.filter((r) => reference.has(r.i));
      if (name !== 'corvid' && paired.length) m.overlapWithCorvid = round(mean(paired.map((r) => share(r.ids, reference.get(r.i)))), 3);
      modes[mode] = m;
    }
    out[name] = {
      label: s.label,
      versions: s.versions,
      ingestChunksPerSecond: Math.round(report.chunks / (s.ingestMs / 1000)),
      indexSeconds: Object.fromEntries(Object.entries(s.indexes ?? {}).map(([k, v]) => [k, round(v / 1000)])),
      peakRssMb: s.peakRssMb,
      peakRssAfterIngestMb: s.ingestRssMb,
      modes,
    };
  }
  return out;
}

/**
 * @param {object} report the raw run of bench/knowledge-peers.mjs
 * @returns {{ summary: object, text: string }} the figures (`--json`) and a readable report with a Markdown table
 */
export function formatPeerReport(report) {
  const systems = summarise(report);
  const names = Object.keys(systems);
  const cell = (name, fn) => fn(systems[name]) ?? '—';
  // A row no system has (IVF_PQ without LanceDB, index build without one) is left out.
  const row = (label, fn) => {
    const cells = names.map((n) => cell(n, fn));
    return cells.every((c) => c === '—') ? undefined : `| ${label} | ${cells.join(' | ')} |`;
  };
  const latency = (mode) => (s) => {
    const m = s.modes[mode];
    if (!m) return undefined;
    const n = m.queries < report.queries ? ` (${m.queries} queries)` : '';
    return `${m.p50} / ${m.p99} ms${n}`;
  };
  const rows = [
    `| ${report.chunks.toLocaleString('en-US')} chunks | ${names.map((n) => systems[n].label).join(' | ')} |`,
    `| --- | ${names.map(() => '---:').join(' | ')} |`,
    row('ingest', (s) => `${s.ingestChunksPerSecond.toLocaleString('en-US')} chunks/s`),
    row('index build after ingest', (s) => {
      const parts = Object.entries(s.indexSeconds).map(([k, v]) => `${k} ${v} s`);
      return parts.length ? parts.join(', ') : undefined;
    }),
    row('peak RSS after ingest / at the end', (s) => `${s.peakRssAfterIngestMb} / ${s.peakRssMb} MB`),
    ...MODES.map(([mode, label]) => row(`${label} p50 / p99`, latency(mode))),
    ...VECTOR_MODES.map((mode) =>
      row(`${MODES.find(([m]) => m === mode)[1]} recall@10`, (s) => (s.modes[mode] ? s.modes[mode].recallAt10.toFixed(3) : undefined)),
    ),
    ...['keyword', 'hybrid'].map((mode) => row(`${mode} top-10 overlap with Corvid`, (s) => s.modes[mode]?.overlapWithCorvid?.toFixed(3))),
  ];
  const versions = names.map(
    (n) =>
      `${n}: ${Object.entries(systems[n].versions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
  );
  const la = (l) => l.map((x) => x.toFixed(2)).join(' ');
  const text = [
    `Knowledge stores side by side (${report.chunks} chunks, ${report.dimensions} dimensions, ${report.queries} queries; budget ${report.budgetSeconds} s per mode)`,
    `Node ${report.node}, ${report.cpu}; load average ${la(report.loadAverage.start)} at the start, ${la(report.loadAverage.end)} at the end; ${report.seconds} s in all`,
    ...versions,
    '',
    ...rows.filter(Boolean),
  ].join('\n');
  return { summary: { ...report, truth: undefined, systems }, text };
}
