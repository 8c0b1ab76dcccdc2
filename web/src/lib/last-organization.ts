// The organization a user last opened, per user, so signing in lands there again.
const storageKey = (userId: string) => `fieldcheck:last-organization:${userId}`;

export function readLastOrganization(userId: string): string | null {
  try {
    return localStorage.getItem(storageKey(userId));
  } catch {
    return null;
  }
}

export function rememberLastOrganization(userId: string, slug: string) {
  try {
    localStorage.setItem(storageKey(userId), slug);
  } catch {
    // Storage may be unavailable (private mode): landing on the first organization is fine.
  }
}
