// Preloaded into function processes when FIELDCHECK_FUNCTIONS_CPU_PROF_DIR is set (process.ts):
// Deno writes a --cpu-prof profile only when the process exits by itself, so the stack's SIGTERM
// becomes an orderly exit.
Deno.addSignalListener('SIGTERM', () => Deno.exit(0));
