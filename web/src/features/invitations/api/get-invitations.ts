import type { Page } from '@schemas/common';
import type { Invitation, InvitationStatus } from '@schemas/members';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export const invitationKeys = {
  all: (orgId: string) => ['invitations', orgId] as const,
  list: (orgId: string, status: InvitationStatus) => ['invitations', orgId, 'list', status] as const,
  preview: (token: string) => ['invitations', 'preview', token] as const,
};

/** `GET /orgs/{org}/invitations?status=`: one page, newest first (owners and admins only). */
export function getInvitations(orgId: string, status: InvitationStatus, cursor: string | undefined): Promise<Page<Invitation>> {
  return callApi<Page<Invitation>>(apiPath('orgs', orgId, 'invitations'), { query: { status, cursor } });
}

export function invitationsQueryOptions(orgId: string, status: InvitationStatus) {
  return infiniteQueryOptions({
    queryKey: invitationKeys.list(orgId, status),
    queryFn: ({ pageParam }) => getInvitations(orgId, status, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useInvitations(orgId: string, status: InvitationStatus) {
  return useInfiniteQuery(invitationsQueryOptions(orgId, status));
}
