import type { NotificationPreferences, NotificationPreferencesUpdate } from '@schemas/notifications';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api';

/** `GET /me/notifications`: which reminder emails the signed-in person gets. */
export function getNotificationPreferences(): Promise<NotificationPreferences> {
  return callApi<NotificationPreferences>('me/notifications');
}

// Not under 'me': what lib/query-persistence.ts keeps on the device is for working offline, and a
// copy kept there would show an earlier choice after a reload for as long as it counts as fresh.
export function notificationPreferencesQueryOptions() {
  return queryOptions({ queryKey: ['notification-preferences'] as const, queryFn: getNotificationPreferences });
}

export function useNotificationPreferences() {
  return useQuery(notificationPreferencesQueryOptions());
}

/** `PATCH /me/notifications`; answers every kind as stored. */
export function updateNotificationPreferences(update: NotificationPreferencesUpdate): Promise<NotificationPreferences> {
  return callApi<NotificationPreferences>('me/notifications', { method: 'PATCH', body: update });
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (stored) => {
      queryClient.setQueryData(notificationPreferencesQueryOptions().queryKey, stored);
    },
  });
}
