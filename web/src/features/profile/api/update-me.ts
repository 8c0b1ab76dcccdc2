import type { Me, ProfileUpdate } from '@schemas/profile';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api';
import { meQueryOptions } from './get-me';

/** `PATCH /me` with the new display name; answers the updated profile. */
export function updateMe(update: ProfileUpdate): Promise<Me> {
  return callApi<Me>('me', { method: 'PATCH', body: update });
}

export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (me) => {
      queryClient.setQueryData(meQueryOptions().queryKey, me);
    },
  });
}
