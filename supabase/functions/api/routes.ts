// The api function's routes, in the order the router tries them (docs/product.md §7). Named, so the
// OpenAPI document (openapi.json) gives each its operationId; index.ts serves them.
import {
  confirmActionAttachment,
  createActionAttachment,
  deleteActionAttachment,
  getActionAttachmentUrl,
} from './action-attachments.ts';
import { createAction, getAction, listActions, patchAction, transitionAction } from './actions.ts';
import { saveAnswers } from './answers.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.ts';
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
import { acceptInvitation, createInvitation, listInvitations, previewInvitation, resendInvitation, revokeInvitation } from './invitations.ts';
import { getMe, getNotificationPreferences, patchMe, patchNotificationPreferences } from './me.ts';
import { listMembers, removeMember, updateMember } from './members.ts';
import { createOrganization, deleteOrganization, getOrganization, listOrganizations, updateOrganization } from './orgs.ts';
import { exportAnswersCsv, exportInspectionsCsv, inspectionReportPdf } from './reports.ts';
import {
  createSchedule,
  deleteSchedule,
  getCompliance,
  getSchedule,
  listScheduleOccurrences,
  listSchedules,
  pauseSchedule,
  resumeSchedule,
  updateSchedule,
} from './schedules.ts';
import { archiveSite, createSite, getSite, listSites, updateSite } from './sites.ts';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhook,
} from './webhooks.ts';
import {
  archiveTemplate,
  createTemplate,
  getTemplate,
  getTemplateVersion,
  listTemplates,
  publishTemplate,
  updateTemplate,
} from './templates.ts';


export const apiRoutes = {
  getMe,
  patchMe,
  getNotificationPreferences,
  patchNotificationPreferences,
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
  resendInvitation,
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
  listApiKeys,
  createApiKey,
  revokeApiKey,
  listWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
  listWebhookDeliveries,
  redeliverWebhook,
  exportInspectionsCsv,
  exportAnswersCsv,
  inspectionReportPdf,
  listSchedules,
  createSchedule,
  getSchedule,
  updateSchedule,
  deleteSchedule,
  pauseSchedule,
  resumeSchedule,
  listScheduleOccurrences,
  getCompliance,
};
