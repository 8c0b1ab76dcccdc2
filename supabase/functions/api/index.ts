// The Fieldcheck REST API (PRODUCT.md §7). Supabase serves it at /functions/v1/api and hands it
// paths starting with /api. It verifies callers itself (verify_jwt = false in config.toml).
import { projectAuthenticator } from '../_shared/auth.ts';
import { createHandler } from '../_shared/http.ts';
import { acceptInvitation, createInvitation, listInvitations, previewInvitation, revokeInvitation } from './invitations.ts';
import { getMe, patchMe } from './me.ts';
import { listMembers, removeMember, updateMember } from './members.ts';
import { createOrganization, deleteOrganization, getOrganization, listOrganizations, updateOrganization } from './orgs.ts';
import { archiveSite, createSite, getSite, listSites, updateSite } from './sites.ts';

Deno.serve(
  createHandler({
    basePath: '/api',
    routes: [
      getMe,
      patchMe,
      listOrganizations,
      createOrganization,
      getOrganization,
      updateOrganization,
      deleteOrganization,
      listMembers,
      updateMember,
      removeMember,
      listInvitations,
      createInvitation,
      revokeInvitation,
      previewInvitation,
      acceptInvitation,
      listSites,
      createSite,
      getSite,
      updateSite,
      archiveSite,
    ],
    authenticator: projectAuthenticator,
  }),
);
