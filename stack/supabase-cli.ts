// `--supabase` mode: the same npm commands drive the real Supabase CLI (which needs Docker),
// so the project runs on Supabase's own containers where they are available.
// It cannot run on machines without Docker, so it stays small and follows the CLI's docs.
import { spawn, spawnSync } from 'node:child_process';
import { projectRoot } from './config.ts';

function supabase(args: string[]): number {
  const result = spawnSync('supabase', args, { cwd: projectRoot, stdio: 'inherit' });
  if (result.error) {
    console.error('The Supabase CLI was not found. Install it (https://supabase.com/docs/guides/cli) and Docker, or run without --supabase.');
    return 1;
  }
  return result.status ?? 1;
}

export async function runSupabaseCli(command: string, options: { background: boolean; web: boolean; dev: boolean; json: boolean }): Promise<number> {
  switch (command) {
    case 'start': {
      const code = supabase(['start']);
      if (code !== 0 || options.background) return code;
      // Foreground: serve the functions and the web app until Ctrl-C, as `npm start` does locally.
      const functions = spawn('supabase', ['functions', 'serve'], { cwd: projectRoot, stdio: 'inherit' });
      // The built app with its service worker (as `npm start` serves it locally), or with --dev Vite's dev server.
      const vite = (args: string[]) => spawn(process.execPath, ['node_modules/vite/bin/vite.js', ...args, '--config', 'web/vite.config.ts'], { cwd: projectRoot, stdio: 'inherit' });
      if (!options.dev) {
        const build = vite(['build']);
        const built = await new Promise<number | null>((resolve) => build.once('exit', resolve));
        if (built !== 0) {
          functions.kill('SIGINT');
          return built ?? 1;
        }
      }
      const web = options.dev ? vite([]) : vite(['preview', '--port', process.env.PORT ?? '5173']);
      await new Promise((resolve) => web.once('exit', resolve));
      functions.kill('SIGINT');
      return 0;
    }
    case 'status':
      return supabase(options.json ? ['status', '-o', 'json'] : ['status']);
    case 'stop':
      return supabase(['stop']);
    case 'db-reset':
      return supabase(['db', 'reset']);
    default:
      console.error(`Unknown command ${command}`);
      return 1;
  }
}
