// Memory of a long answer (an export, a report) for the benchmark (tests/bench/reports.ts), which
// sets FIELDCHECK_MEMORY_PROBE on a process of its own: the highest V8 heap use, external
// (ArrayBuffer) memory and RSS seen at each step, logged once at the end. Off everywhere else.
//
// FIELDCHECK_MEMORY_PROBE=1 samples what is allocated, garbage the collector has not reclaimed yet
// included. FIELDCHECK_MEMORY_PROBE=live (in a process run with V8's --expose-gc) collects all
// garbage before a sample, at most every LIVE_SAMPLE_MS: the memory the answer really holds at
// those moments, which is what has to fit.
const mode = (() => {
  try {
    return Deno.env.get('FIELDCHECK_MEMORY_PROBE') ?? '';
  } catch {
    return '';
  }
})();

const LIVE_SAMPLE_MS = 250;

export interface MemoryProbe {
  /**
   * Samples memory at `step` (named in the log when it is the peak); `now` even within
   * LIVE_SAMPLE_MS of the last live sample (a moment known to hold much).
   */
  sample(step?: string, now?: boolean): void;
  end(): void;
}

const off: MemoryProbe = { sample() {}, end() {} };

export function memoryProbe(label: string): MemoryProbe {
  if (mode !== '1' && mode !== 'live') return off;
  const collect = mode === 'live' ? (globalThis as { gc?: () => void }).gc : undefined;
  if (mode === 'live' && !collect) throw new Error('FIELDCHECK_MEMORY_PROBE=live needs --v8-flags=--expose-gc');
  let lastLive = 0;
  // heap_and_external_mb: both at one moment, what a limit on the isolate's memory (V8's heap and
  // the buffers it owns) sees.
  const peak = { heap_used_mb: 0, external_mb: 0, heap_and_external_mb: 0, rss_mb: 0, peak_step: '' };
  const sample = (step = '', now = false) => {
    if (collect) {
      if (!now && performance.now() - lastLive < LIVE_SAMPLE_MS) return;
      collect();
      lastLive = performance.now();
    }
    const usage = Deno.memoryUsage();
    peak.heap_used_mb = Math.max(peak.heap_used_mb, Math.round(usage.heapUsed / 1048576));
    peak.external_mb = Math.max(peak.external_mb, Math.round(usage.external / 1048576));
    const both = Math.round((usage.heapUsed + usage.external) / 1048576);
    if (both > peak.heap_and_external_mb) {
      peak.heap_and_external_mb = both;
      peak.peak_step = step;
    }
    peak.rss_mb = Math.max(peak.rss_mb, Math.round(usage.rss / 1048576));
  };
  return {
    sample,
    end() {
      sample('end', true);
      console.error(JSON.stringify({ memory_probe: label, mode, ...peak }));
    },
  };
}
