// GoTrue's redirect allow-list: the site URL's host, or one of additional_redirect_urls, whose
// glob patterns treat `.` and `/` as separators (`*` stays inside one label, `**` crosses them).
import type { AuthSettings } from '../config.ts';

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (ch === '*') {
      source += '[^./]*';
    } else if (ch === '?') {
      source += '[^./]';
    } else {
      source += ch.replace(/[\\^$+.()|{}[\]]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

export function isRedirectAllowed(settings: AuthSettings, candidate: string): boolean {
  let target: URL;
  try {
    target = new URL(candidate);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return settings.additionalRedirectUrls.some((pattern) => globToRegExp(pattern).test(candidate));
  }
  try {
    if (new URL(settings.siteUrl).hostname === target.hostname) return true;
  } catch {
    // A malformed site URL only disables the host shortcut.
  }
  return settings.additionalRedirectUrls.some((pattern) => globToRegExp(pattern).test(candidate));
}

/** The redirect the client asked for when it is allowed, otherwise the site URL. */
export function chooseRedirect(settings: AuthSettings, requested: string | null | undefined): string {
  if (requested && isRedirectAllowed(settings, requested)) return requested;
  return settings.siteUrl;
}
