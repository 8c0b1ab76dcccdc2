// Memory of a long answer (an export, a report) for the benchmark (tests/bench/reports.ts), which
// sets FIELDCHECK_MEMORY_PROBE=1 on a process of its own: the highest V8 heap use, external
// (ArrayBuffer) memory and RSS seen at each step, logged once at the end. Off everywhere else.
const enabled = (() => {
  try {
    return Deno.env.get('FIELDCHECK_MEMORY_PROBE') === '1';
  } catch {
    return false;
  }
})();

export interface MemoryProbe {
  sample(): void;
  end(): void;
}

const off: MemoryProbe = { sample() {}, end() {} };

export function memoryProbe(label: string): MemoryProbe {
  if (!enabled) return off;
  const peak = { heap_used_mb: 0, external_mb: 0, rss_mb: 0 };
  const sample = () => {
    const usage = Deno.memoryUsage();
    peak.heap_used_mb = Math.max(peak.heap_used_mb, Math.round(usage.heapUsed / 1048576));
    peak.external_mb = Math.max(peak.external_mb, Math.round(usage.external / 1048576));
    peak.rss_mb = Math.max(peak.rss_mb, Math.round(usage.rss / 1048576));
  };
  return {
    sample,
    end() {
      sample();
      console.error(JSON.stringify({ memory_probe: label, ...peak }));
    },
  };
}
