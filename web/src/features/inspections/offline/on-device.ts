import type { QueryClient } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { inspectionKeys } from '../api/get-inspections';

/** The ids of the organization's inspections whose run page has what it needs on this device. */
export function useInspectionsOnDevice(queryClient: QueryClient, orgId: string): ReadonlySet<string> {
  const ids = useSyncExternalStore(
    (listener) => queryClient.getQueryCache().subscribe(listener),
    () => onDeviceKey(queryClient, orgId),
  );
  return useMemo(() => new Set(ids === '' ? [] : ids.split(',')), [ids]);
}

function onDeviceKey(queryClient: QueryClient, orgId: string): string {
  const prefix = inspectionKeys.detail(orgId, '').slice(0, -1);
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: prefix })
    .filter((query) => query.state.data !== undefined)
    .map((query) => String(query.queryKey[3]))
    .sort()
    .join(',');
}
