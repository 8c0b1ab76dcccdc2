import type { PrivateChannelWatch } from './private-channel';
import { supabaseLoaded } from './supabase';

/**
 * A channel watch whose code loads with supabase-js. The realtime code (lib/private-channel.ts and
 * the topic modules) is of no use before supabase-js has loaded, a moment after the first screen
 * (lib/auth.ts), so it is not part of the first load (docs/offline.md, "Weight"). The watch is
 * returned at once; presence given meanwhile is shared once the channel is open, and a watch
 * stopped meanwhile never opens.
 */
export function lazyWatch<Presence>(open: () => Promise<PrivateChannelWatch<Presence>>): PrivateChannelWatch<Presence> {
  let watch: PrivateChannelWatch<Presence> | null = null;
  let stopped = false;
  let waitingPresence: { value: Presence | null } | null = null;
  void supabaseLoaded()
    .then(open)
    .then((opened) => {
      if (stopped) return opened.stop();
      watch = opened;
      if (waitingPresence) opened.track(waitingPresence.value);
    })
    .catch(() => undefined);
  return {
    stop() {
      stopped = true;
      watch?.stop();
    },
    track(value) {
      if (watch) watch.track(value);
      else waitingPresence = { value };
    },
  };
}
