import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { inspectionQueryOptions, refetchInspection, storeAnswers } from '../api/get-inspection';
import type { PrivateChannelWatch } from '@/lib/private-channel';
import { lazyWatch } from '@/lib/lazy-watch';
import type { AnswerEvent } from '@schemas/answers';
import type { InspectionChannelListener, InspectionPresence } from '../utils/inspection-channel';
import type { ChangedElsewhere, takeSavedAnswers } from '../utils/live-answers';

export type { ChangedElsewhere } from '../utils/live-answers';

interface Options {
  orgId: string;
  inspectionId: string;
  userId: string;
  displayName: string;
  /** The item this tab is on: shared as presence. */
  focusedItemKey: string | null;
  /** Whether the user is editing an item (focused on it, or a change of theirs is not saved yet). */
  isEditing: (itemKey: string) => boolean;
}

/**
 * Keeps the run page live from `inspection:<id>`: answers others save go into the cached
 * inspection (with a notice on an item the user is editing), transitions and photos refetch it,
 * and presence tells who else is here and on which item.
 */
export function useInspectionLive({ orgId, inspectionId, userId, displayName, focusedItemKey, isEditing }: Options) {
  const queryClient = useQueryClient();
  const [presences, setPresences] = useState<InspectionPresence[]>([]);
  const [changedElsewhere, setChangedElsewhere] = useState<Map<string, ChangedElsewhere>>(new Map());
  const watch = useRef<PrivateChannelWatch<InspectionPresence> | null>(null);
  const isEditingRef = useRef(isEditing);
  isEditingRef.current = isEditing;
  const namesRef = useRef(new Map<string, string>());

  useEffect(() => {
    const refetch = () => void refetchInspection(queryClient, orgId, inspectionId);
    // Loaded with the channel (below), so the first load does not carry it; events come only after.
    let take: typeof takeSavedAnswers | undefined;
    /** A batch someone saved (ours too): what this tab does not hold yet goes into the cache at once. */
    function onAnswersSaved(answers: AnswerEvent[]) {
      if (!take) return refetch();
      const detail = queryClient.getQueryData(inspectionQueryOptions(orgId, inspectionId).queryKey);
      const { fresh, changedElsewhere: edited } = take(answers, {
        held: detail?.answers ?? [],
        userId,
        names: namesRef.current,
        isEditing: isEditingRef.current,
        now: Date.now(),
      });
      if (fresh.length > 0) storeAnswers(queryClient, orgId, inspectionId, fresh);
      if (edited.size > 0) setChangedElsewhere((current) => new Map([...current, ...edited]));
    }
    const listener: InspectionChannelListener = {
      onEvent(message) {
        // Transitions and photos change more than the payload says: read the inspection again.
        if (message.event === 'answers_saved') onAnswersSaved(message.answers);
        else refetch();
      },
      onJoined() {
        // Events sent before the join are not replayed: after a lost connection, and on the first
        // join too, which comes a moment after the page read the inspection (lib/auth.ts).
        refetch();
      },
      // Refused: the inspection is gone or no longer ours; reading it again says so, and the page then leaves the channel.
      onRefused: refetch,
      onPresence(next) {
        for (const presence of next) namesRef.current.set(presence.user_id, presence.display_name);
        setPresences(next);
      },
    };
    watch.current = lazyWatch(() =>
      import('../utils/inspection-channel').then((channel) => {
        take = channel.takeSavedAnswers;
        return channel.watchInspectionChannel(inspectionId, userId, listener);
      }),
    );
    return () => {
      watch.current?.stop();
      watch.current = null;
    };
  }, [orgId, inspectionId, userId, queryClient]);

  useEffect(() => {
    watch.current?.track({ user_id: userId, display_name: displayName, item_key: focusedItemKey });
  }, [userId, displayName, focusedItemKey, inspectionId]);

  /** Everyone else here, one entry per person (several tabs of one person count once). */
  const others = useMemo(() => {
    const byUser = new Map<string, InspectionPresence>();
    for (const presence of presences) {
      if (presence.user_id === userId) continue;
      const known = byUser.get(presence.user_id);
      if (!known || (!known.item_key && presence.item_key)) byUser.set(presence.user_id, presence);
    }
    return [...byUser.values()].sort((a, b) => a.display_name.localeCompare(b.display_name));
  }, [presences, userId]);

  function dismissChange(itemKey: string) {
    setChangedElsewhere((current) => {
      const next = new Map(current);
      next.delete(itemKey);
      return next;
    });
  }

  return { others, changedElsewhere, dismissChange };
}
