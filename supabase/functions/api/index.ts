// The Fieldcheck REST API (PRODUCT.md §7). Supabase serves it at /functions/v1/api and hands it
// paths starting with /api. It verifies callers itself (verify_jwt = false in config.toml).
import { projectAuthenticator } from '../_shared/auth.ts';
import { createHandler } from '../_shared/http.ts';
import {
  confirmActionAttachment,
  createActionAttachment,
  deleteActionAttachment,
  getActionAttachmentUrl,
} from './action-attachments.ts';
import { createAction, getAction, listActions, patchAction, transitionAction } from './actions.ts';
import { saveAnswers } from './answers.ts';
import { listActivity, listAuditLog } from './audit-log.ts';
import { confirmAttachment, createAttachment, deleteAttachment, getAttachmentUrl } from './attachments.ts';
import { getDashboard } from './dashboard.ts';
import {
  cancelInspection,
  createInspection,
  getInspection,
  listInspections,
  patchInspection,
  reviewInspection,
  startInspection,
  submitInspection,
} from './inspections.ts';
import { acceptInvitation, createInvitation, listInvitations, previewInvitation, revokeInvitation } from './invitations.ts';
import { getMe, patchMe } from './me.ts';
import { listMembers, removeMember, updateMember } from './members.ts';
import { createOrganization, deleteOrganization, getOrganization, listOrganizations, updateOrganization } from './orgs.ts';
import { archiveSite, createSite, getSite, listSites, updateSite } from './sites.ts';
import {
  archiveTemplate,
  createTemplate,
  getTemplate,
  getTemplateVersion,
  listTemplates,
  publishTemplate,
  updateTemplate,
} from './templates.ts';

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
      listTemplates,
      createTemplate,
      getTemplate,
      updateTemplate,
      publishTemplate,
      archiveTemplate,
      getTemplateVersion,
      listInspections,
      createInspection,
      getInspection,
      patchInspection,
      startInspection,
      submitInspection,
      saveAnswers,
      reviewInspection,
      cancelInspection,
      getDashboard,
      createAttachment,
      confirmAttachment,
      getAttachmentUrl,
      deleteAttachment,
      listActions,
      createAction,
      getAction,
      patchAction,
      transitionAction,
      createActionAttachment,
      confirmActionAttachment,
      getActionAttachmentUrl,
      deleteActionAttachment,
      listAuditLog,
      listActivity,
    ],
    authenticator: projectAuthenticator,
  }),
);
