import type { Me, ProfileUpdate } from '@schemas/profile';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../../../lib/errors';
import { supabase } from '../../../lib/supabase';
import { meQueryOptions } from './get-me';

/** `PATCH /me` with the new display name; answers the updated profile. */
export async function updateMe(update: ProfileUpdate): Promise<Me> {
  const { data, error } = await supabase.functions.invoke<Me>('api/me', { method: 'PATCH', body: update });
  if (error) throw await toApiError(error);
  if (!data) throw await toApiError(null);
  return data;
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
